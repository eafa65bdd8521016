#include <iostream>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "rebirth/error.h"
#include "rebirth/perft.h"
#include "rebirth/popeye_input.h"
#include "rebirth/position.h"
#include "rebirth/rules.h"
#include "rebirth/setup.h"

namespace rebirth::cli {

int run_perft(const PerftArgs& args) {
    Setup setup;
    SetupRules setup_rules;
    std::vector<Condition> conditions;
    std::string file = args.fen.empty() ? args.file : "<fen>";
    int line = 0;
    int condition_line = 0;
    std::vector<std::pair<Square, Square>> castling_exclusive;
    if (!args.fen.empty()) {
        setup = parse_fen(args.fen, "<fen>");
    } else {
        // Bad input in another problem of the file does not matter; in this one it does.
        std::vector<Problem> problems = parse_popeye_file(args.file, ParseMode::Recover);
        if (args.problem > int(problems.size()))
            throw InputError(args.file, 0, std::to_string(args.problem),
                             "the file holds " + std::to_string(problems.size()) + " problem(s); no problem");
        const Problem& p = problems[args.problem - 1];
        if (p.error) throw *p.error;
        line = p.where.line;
        conditions = p.conditions;
        condition_line = p.condition_line ? p.condition_line : p.where.line;
        setup = p.setup;
        setup_rules.require_white_king = !p.options.no_white_king;
        setup_rules.require_black_king = !p.options.no_black_king;
        castling_exclusive = p.options.castling_exclusive;
    }
    RuleSet rules;
    if (!args.condition.empty()) {
        std::vector<Condition> extra = parse_condition_words(args.condition, "--condition");
        conditions.insert(conditions.end(), extra.begin(), extra.end());
        rules = resolve_rules(conditions, "--condition", 0);
    } else {
        rules = resolve_rules(conditions, file, condition_line);
    }
    add_castling_exclusive(rules, castling_exclusive);
    setup_rules.rules = &rules;
    Position pos;
    try {
        pos.set(setup, setup_rules, file);
    } catch (const InputError& e) {
        if (e.line() != 0 || !args.fen.empty()) throw;
        throw InputError(file, line, e.word(), e.reason());
    }

    if (args.divide) {
        std::uint64_t total = 0;
        for (const auto& [move, count] : perft_divide(pos, args.depth, args.threads)) {
            std::cout << move << ": " << count << "\n";
            total += count;
        }
        std::cout << total << std::endl;
        return kExitOk;
    }
    std::uint64_t n = args.threads == 1 ? perft(pos, args.depth) : parallel_perft(pos, args.depth, args.threads);
    std::cout << n << std::endl;
    return kExitOk;
}

}  // namespace rebirth::cli
