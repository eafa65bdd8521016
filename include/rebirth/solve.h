#pragma once

#include <string>

#include "rebirth/problem.h"

namespace rebirth {

// Everything Popeye prints after the header (format_header) for one problem: for each twin
// its twin line, the solution lines with Popeye's blank lines, then "solution finished."
// (or "Partial solution" when MaxSolutions/StopOnShortSolutions cut the search), in the
// problem's language. A twin whose stipulation no solver handles gets one line saying so;
// *all_supported (when given) is then set to false. Throws InputError (naming the
// problem's file and line) when the conditions or the diagram are not playable.
std::string solve_problem(const Problem& p, int threads = 0, bool* all_supported = nullptr);

}  // namespace rebirth
