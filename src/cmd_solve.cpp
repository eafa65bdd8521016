#include <iostream>
#include <string>
#include <vector>

#include "cli.h"
#include "rebirth/error.h"
#include "rebirth/popeye_input.h"
#include "rebirth/popeye_output.h"
#include "rebirth/position.h"
#include "rebirth/rules.h"

namespace rebirth::cli {

namespace {

// Resolves the conditions of `p` and checks its diagram as a playable position under them;
// InputError names the problem's file and line.
void check_problem(const Problem& p) {
    const RuleSet rules =
        resolve_rules(p.conditions, p.where.file, p.condition_line ? p.condition_line : p.where.line);
    SetupRules setup_rules;
    setup_rules.require_white_king = !p.options.no_white_king;
    setup_rules.require_black_king = !p.options.no_black_king;
    setup_rules.rules = &rules;
    try {
        Position pos(p.setup, setup_rules, p.where.file);
    } catch (const InputError& e) {
        throw InputError(p.where.file, p.where.line, e.word(), e.reason());
    }
}

}  // namespace

int run_solve(const SolveArgs& args) {
    std::vector<Problem> problems = parse_popeye_file(args.file);
    int unsolved = 0;
    for (const Problem& p : problems) {
        std::cout << format_header(p);
        try {
            check_problem(p);
            // No solver exists yet: say so for this problem and go on with the next one.
            std::cout << "rebirth: " << p.where.file << ":" << p.where.line << ": stipulation "
                      << (p.stipulation.text.empty() ? std::string("(none)") : p.stipulation.text)
                      << " is not supported yet: the problem was not solved\n\n";
        } catch (const InputError& e) {
            std::cout << "rebirth: " << e.what() << "\n\n";
            std::cout.flush();
            std::cerr << "rebirth: " << e.what() << "\n";
        }
        ++unsolved;
    }
    std::cout.flush();
    if (unsolved)
        std::cerr << "rebirth: " << unsolved << " of " << problems.size() << " problem(s) of " << args.file
                  << " not solved (see the messages above)\n";
    return unsolved ? kExitBadInput : kExitOk;
}

}  // namespace rebirth::cli
