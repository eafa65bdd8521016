#pragma once

#include <string>

#include "rebirth/problem.h"

namespace rebirth {

// Popeye's header for a problem, in the problem's language: the centred author/origin/
// title lines, the board (unless NoBoard), the stipulation line with the piece count, and
// the condition lines, exactly as `py -regression` prints them.
std::string format_header(const Problem& problem);

// The board diagram alone, Popeye style.
std::string format_board(const Problem& problem);

}  // namespace rebirth
