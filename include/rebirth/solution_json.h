#pragma once

#include <nlohmann/json.hpp>

#include "rebirth/problem.h"
#include "rebirth/solve.h"

// The solutions of a solved problem (SolveReport's data) as JSON, for `rebirth solve --json`:
// moves in Popeye's notation in the problem's language, each solution with its twin.

namespace rebirth {

// {"games": [...], "lines": [...], "trees": [...]}, each list present when it has entries:
// proof games and help or series lines as {"twin", "play", "first" ("w"/"b"), "moves"
// (the passes of series play left out), "set_play" (only when true)}; battle play's keys and
// tries as {"twin", "play", "kind" ("key"/"try"), "move", "threats", "defences",
// "refutations"}, a defence {"move", "continuations"}, a threat or continuation {"move",
// "defences"} (deeper play), each list only when it has entries. Throws InputError when a
// twin of p is not playable (solve_problem_report threw it too).
nlohmann::json solutions_json(const Problem& p, const SolveReport& report);

}  // namespace rebirth
