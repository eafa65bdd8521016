#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rebirth/error.h"
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

// A problem with the solution claimed for it: a Popeye input file holding one problem, its
// EndProblem (in the file's language) followed by the claimed solution as Popeye prints it.
struct ClaimedProblem {
    std::string name;  // the file, and for a document of a YAML file "FILE:LINE" (its first line)
    Problem problem;
    std::string claimed;   // the text after the problem's end keyword
    int claimed_line = 0;  // the file line the claimed text starts on
    // A document that could not be read (read_claims): why, naming file, line and word;
    // `problem` is then empty.
    std::optional<InputError> error;
};

// Reads `path` as ClaimedProblem. Throws InputError (file, line, word) for unreadable or bad
// Popeye input and for a file with more than one problem.
ClaimedProblem read_claimed_problem(const std::string& path);

// The claimed problems of a YAML file (.yaml, .yml) in yacpdb's and Olive's layout, one a
// document: `algebraic` (`white`, `black`: lists of units in Popeye's English codes, "Sb1"),
// `stipulation` ("#2", "h#3", "dia4.5"; "PG 4.5" is read as dia4.5), `options` (each a Popeye
// condition, or else a Popeye option), `twins` (each a Popeye twinning, "Remove a7"),
// `authors`, `source` (its `name`) and `solution` (the claim, as verify_claimed reads it).
// Throws InputError naming the file, the document's line and the word for a YAML error or a
// field Popeye cannot read (on the line of that field).
std::vector<ClaimedProblem> read_claimed_yaml(const std::string& path);

// The claimed problems of a file: read_claimed_yaml for .yaml and .yml, else
// read_claimed_problem. A document (or file) that cannot be read comes back with its `error`
// and the others are read on; never throws.
std::vector<ClaimedProblem> read_claims(const std::string& path);

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
