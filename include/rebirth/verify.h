#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "rebirth/claims.h"
#include "rebirth/problem.h"
#include "rebirth/solve.h"

// Verifying a claimed solution of a problem against the solutions rebirth finds: the claim's
// moves are read in the problem's positions and compared with the solutions as moves, not as
// text (a claimed move may leave out check marks and, where they decide nothing, rebirth
// brackets). Proof games (dia, a=>b, of both sides), help and series play (every line), and
// battle play (direct, self, reflex: the keys, the claimed threats, and the continuations of
// the claimed variations that rebirth shows, where more than one is a dual), each twin apart.
// Introductory moves and duplex proof games are not compared yet: those claims are
// "unverified" and say so.

namespace rebirth {

struct VerifyResult {
    // "sound": the claimed solutions are exactly the solutions found; "cooked": every claimed
    // one is one, and more are found (listed in `cooks`); "dual": as sound, but a claimed
    // variation of battle play has more than one continuation (listed in `duals`); "missing":
    // a claimed one is no solution, or a claimed continuation is none (why in `missing`, the
    // cooks listed too); "unverified": not decided (why in `why`).
    std::string verdict;
    std::vector<std::string> cooks;  // solutions found and not claimed, in Popeye's notation
    // "game 2 (line 7): 3.Sg1-f3 is not a legal move there" (proof games), "claim 1 (line 3):
    // 1.Sb6 is not a key: ..." (other play).
    std::vector<std::string> missing;
    // "after 1.Sa8-b6 1...Kd4-e4: 2.Qa1-e5, 2.Qa1-a8": a claimed variation with its continuations.
    std::vector<std::string> duals;
    std::string why;
    int claimed = 0;  // solutions claimed (proof games, help and series lines, keys)
    int found = 0;    // solutions found
    // For reports: the claimed solutions as written (one line each), every solution found in
    // Popeye's notation ("b) " first in a twin), and for each its boards from the play's start
    // (FEN placement fields, the start and one per move).
    std::vector<std::string> claimed_lines;
    std::vector<std::string> games;
    std::vector<std::vector<std::string>> boards;
    // Battle play: each key found with the play shown below it (its threats and variations
    // when the claim has some or the problem asks for them), as Popeye writes it.
    std::vector<std::string> trees;
};

// Verifies `claimed` for problem `p`, solving it on `threads` within `limits`. The claim is
// solution text as Popeye prints it: each solution a line of numbered moves ("1.e2-e4 e7-e5
// 2.Sg1-f3 dia"; "1..." when its first move is of the side not numbered), a key of battle play
// as the first move of a line "1.Sa8-b6!", "1.Sa8-b6 ! threat:" or "1.Qh8#" (tries, marked
// "?", variations "1...X" and the rest of the line are not read), a twin's lines after its label ("b)" on their line or
// on a line before them); other lines are ignored. A move may be written in Popeye's long notation (with its brackets,
// compared exactly, or without them), in short algebraic ("Nf3", "exd5", "e8=Q") or in
// WinChloe's style ("Cf3", "Fxc4 (Cb1)": the square in parentheses is a rebirth's), with the
// unit letters of the problem's language or, for a whole line, of another of Popeye's
// languages (English also with SAN's N for the knight). Throws InputError naming p's file, the
// claimed text's line (counted from `first_line`) and the token that is not a move at all; a
// move that is not legal where it is claimed is a "missing" verdict instead.
VerifyResult verify_claimed(const Problem& p, std::string_view claimed, int first_line, int threads,
                            const SolveLimits& limits);

// verify_claimed on claim c (not an unreadable one) as a JSON object, as `rebirth verify
// --json` and the reports give it: file (c's name), verdict, claimed, found, cooks, missing,
// why (when there is one), and for reports stipulation, conditions, diagram, claimed_lines,
// games, boards. Throws InputError for a claim that does not parse.
nlohmann::json claim_result(const ClaimedProblem& c, int threads, double max_seconds);
// claim_result, or for a claim that could not be read (c.error) or does not parse the verdict
// "bad-input" with the message as `why` (file, verdict, why). Never throws InputError.
nlohmann::json checked_claim(const ClaimedProblem& c, int threads, double max_seconds);
// A claim's result as `verify` and `cookcheck` print it: "FILE: verdict (N claimed, M found)"
// or "FILE: verdict: why", then a line per claimed solution that is no solution and per
// solution not claimed.
std::string claim_result_text(const nlohmann::json& r);

}  // namespace rebirth
