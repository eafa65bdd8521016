#include <iostream>
#include <string>
#include <vector>

#include "cli.h"
#include "rebirth/error.h"
#include "rebirth/popeye_input.h"
#include "rebirth/popeye_output.h"
#include "rebirth/position.h"

namespace rebirth::cli {

namespace {

// Checks the diagram of `p` as a playable position; InputError names the problem's file and line.
void check_position(const Problem& p) {
    SetupRules rules;
    rules.require_white_king = !p.options.no_white_king;
    rules.require_black_king = !p.options.no_black_king;
    try {
        Position pos(p.setup, rules, p.where.file);
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
            check_position(p);
            // No solver exists yet: say so for this problem and go on with the next one.
            std::cout << "rebirth: " << p.where.file << ":" << p.where.line << ": stipulation "
                      << (p.stipulation.text.empty() ? std::string("(none)") : p.stipulation.text)
                      << " is not supported yet: the problem was not solved\n\n";
        } catch (const InputError& e) {
            std::cout << "rebirth: " << e.what() << "\n\n";
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
