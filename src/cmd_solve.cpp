#include <iostream>
#include <string>
#include <vector>

#include "cli.h"
#include "rebirth/error.h"
#include "rebirth/popeye_input.h"
#include "rebirth/popeye_output.h"
#include "rebirth/solve.h"

namespace rebirth::cli {

int run_solve(const SolveArgs& args) {
    std::vector<Problem> problems = parse_popeye_file(args.file);
    int unsolved = 0;
    for (const Problem& p : problems) {
        std::cout << format_header(p);
        try {
            bool supported = true;
            std::cout << solve_problem(p, args.threads, &supported);
            if (!supported) ++unsolved;
        } catch (const InputError& e) {
            // Bad conditions or diagram: say so for this problem and go on with the next one.
            std::cout << "rebirth: " << e.what() << "\n\n";
            std::cout.flush();
            std::cerr << "rebirth: " << e.what() << "\n";
            ++unsolved;
        }
        std::cout.flush();
    }
    if (unsolved)
        std::cerr << "rebirth: " << unsolved << " of " << problems.size() << " problem(s) of " << args.file
                  << " not solved (see the messages above)\n";
    return unsolved ? kExitBadInput : kExitOk;
}

}  // namespace rebirth::cli
