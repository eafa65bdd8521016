#pragma once

// Internal interface between the problem solver front end (solve.cpp) and the solvers of
// each family of stipulations. Not a public header.

#include <string>

#include "rebirth/goal.h"
#include "rebirth/position.h"
#include "rebirth/problem.h"
#include "rebirth/rules.h"

namespace rebirth {

// One problem (one twin) ready to solve: its resolved rules and its playable diagram.
struct SolveContext {
    const Problem& problem;      // the twin's problem value (stipulation, options, language)
    const RuleSet& rules;        // resolved conditions; positions point to it
    const Position& initial;     // the diagram, side to move from the stipulation
    Goal goal;                   // the stipulation's goal
    int threads = 0;             // 0 = all cores
    // Set to true by a solver when MaxSolutions or StopOnShortSolutions cut its search; its
    // output then ends without the closing blank line of the last phase, and the front end
    // prints "Partial solution" instead of "solution finished.". May be null.
    bool* partial = nullptr;
};

// Each writes Popeye's solution lines for the problem into `out` (exactly as Popeye prints
// them between the header/twin line and "solution finished.") and returns true, or returns
// false without writing when it does not handle the stipulation.
bool solve_help_or_series(const SolveContext& ctx, std::string& out);  // h..., ser-...
bool solve_direct(const SolveContext& ctx, std::string& out);          // #n, =n, s#n, r#n, ...

}  // namespace rebirth
