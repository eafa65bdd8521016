#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "rebirth/problem.h"

namespace rebirth {

// Popeye's header for a problem, in the problem's language, exactly as `py -regression`
// prints it: the remarks, the underworld and other notes, then (unless NoBoard) the centred
// author/origin/award/title lines, the board (for a=>b: position a, the starter, then b),
// the stipulation line with the piece count, and the centred attribute, condition and
// option lines. Ends with the '\n' of its last line; the empty line that follows it in
// Popeye's output belongs to the solution.
std::string format_header(const Problem& problem);

// The board diagram alone, Popeye style: an empty line, then the framed 8x8 diagram.
std::string format_board(const Problem& problem);
std::string format_board(const std::array<Piece, SQUARE_NB>& board, Language language);

// The condition lines Popeye writes for `conditions` (not centred, no '\n'), in Popeye's
// order, with the qualifying words in Popeye's order and in `language`.
std::vector<std::string> format_condition_lines(const std::vector<Condition>& conditions, Language language);

// `line` centred the way Popeye centres header lines in its 37-column diagram, with '\n'.
std::string centre_line(std::string_view line);

// Popeye's twin announcement for twin `index` (0 = "a) ", the diagram unless a ZeroPosition
// comes first), without '\n': "b) Circe Clone  ", continued twins "+c) ...".
std::string format_twin_line(const Problem& problem, size_t index);

}  // namespace rebirth
