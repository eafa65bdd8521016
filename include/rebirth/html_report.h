#pragma once

#include <nlohmann/json.hpp>
#include <string>

// The cook-check report as one self-contained HTML page (no network access, no external
// script or style): a summary table (problems and counts per verdict, time), then per problem
// its diagram drawn as SVG (board coordinates, units as chess glyphs, white and black
// distinct), stipulation, conditions, verdict, the claimed and the found solutions side by
// side with the differences marked (a claimed line that is no solution, a found one not
// claimed), and for proof games a step-through of each found game (buttons and a small
// inline script redraw the board after each half-move).

namespace rebirth {

// `report` is the JSON report `rebirth cookcheck --report FILE.json` writes: {"summary":
// {"problems", "seconds", and a count per verdict}, "problems": [{"file", "verdict", "why",
// "claimed", "found", "cooks", "missing", "claimed_lines", "games", "boards", "diagram",
// "stipulation", "conditions"}]}; absent fields are left out of the page. Text is escaped.
std::string html_report(const nlohmann::json& report);

}  // namespace rebirth
