#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rebirth/claims.h"
#include "rebirth/problem.h"
#include "rebirth/solve.h"

// Verifying a claimed solution of a problem against the solutions rebirth finds: the claim's
// moves are read in the problem's positions and compared with the solutions as moves, not as
// text (a claimed move may leave out check marks and, where they decide nothing, rebirth
// brackets). Proof games (dia, a=>b, of both sides, without twins or Duplex) so far; other
// play is "unverified" and says so.

namespace rebirth {

struct VerifyResult {
    // "sound": the claimed games are exactly the games found; "cooked": every claimed game is
    // one, and more are found (listed in `cooks`); "missing": a claimed game is no solution
    // (why in `missing`, the cooks listed too); "unverified": not decided (why in `why`).
    std::string verdict;
    std::vector<std::string> cooks;    // games found and not claimed, in Popeye's notation
    std::vector<std::string> missing;  // "game 2: 3.Sg1-f3 is not a legal move there", ...
    std::string why;
    int claimed = 0;  // games claimed
    int found = 0;    // games found
    // For reports: the claimed games as written (one line each), every game found in Popeye's
    // notation, and for each found game its boards from the start to the diagram (FEN
    // placement fields, one per half-move and the start).
    std::vector<std::string> claimed_lines;
    std::vector<std::string> games;
    std::vector<std::vector<std::string>> boards;
};

// Verifies `claimed` (solution text: each game a line of numbered moves, "1.e2-e4 e7-e5
// 2.Sg1-f3 dia", the game's first move "1..." when Black plays first; other lines are
// ignored) for problem `p`. A move may be written in Popeye's long notation (with its
// brackets, compared exactly, or without them), in short algebraic ("Nf3", "exd5", "e8=Q")
// or in WinChloe's style ("Cf3", "Fxc4 (Cb1)": the square in parentheses is a rebirth's), with
// the unit letters of the problem's language or, for a whole game, of another of Popeye's
// languages (English also with SAN's N for the knight). For `p`, solving it on `threads` within `limits`. Throws
// InputError naming p's file, the claimed text's line (counted from `first_line`) and the
// token that is not a move at all; a move that is not legal where it is claimed is a
// "missing" verdict instead.
VerifyResult verify_claimed(const Problem& p, std::string_view claimed, int first_line, int threads,
                            const SolveLimits& limits);

}  // namespace rebirth
