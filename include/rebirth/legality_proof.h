#pragma once

#include <string>
#include <vector>

#include "rebirth/legality.h"
#include "rebirth/move.h"
#include "rebirth/proof_builder.h"
#include "rebirth/setup.h"

// Legality of an orthodox diagram with its proof: "illegal" with the sound reason of the
// static analysis (legality.h) or of the retractions (retro.h, may_be_legal), "legal" with a
// game from the game array that reaches it (proof_builder.h), replayed before it is believed,
// or "unresolved" when neither is proved. Never a guess.

namespace rebirth {

struct LegalityProof {
    enum class Verdict { Legal, Illegal, Unresolved };
    Verdict verdict = Verdict::Unresolved;
    std::string reason;      // Illegal: why; Unresolved: what was tried
    std::vector<Move> game;  // Legal: from the game array (White to move) to the diagram
    const char* verdict_name() const;
};

// Judges `diagram` (its side to move; its castling rights claim that those kings and rooks
// never moved, its en passant square that the last move was that double step): illegal when
// analyze_orthodox_legality or may_be_legal(diagram, depth) refutes it; legal when a game is
// found whose replay (every move legal where it is played) ends on the diagram's units and
// side to move with its castling rights kept and its en passant square the last move's: by
// build_proof_game to the diagram (half of `limits`' time), else, when the diagram leaves at
// most 12 sequences of its last 1 (then 2) single moves (possible_last_moves), to the
// position one of them leads back to, followed by its moves (the rest of the time, shared;
// half of the nodes each); within a time limit, then, both in rounds of 1/16, 1/8, 1/4 and 1/2
// of it (half each). Else unresolved.
// With `marks` (legality.h): the static analysis takes them as claims, the game search never
// moves a frozen unit, and a game is believed only when it keeps them (marks_broken).
LegalityProof judge_legality(const Setup& diagram, int depth = 3, const BuildLimits& limits = {},
                             const LegalityMarks& marks = {});

// Why `game` (orthodox, from the game array) breaks `marks`: a move from or onto a frozen
// square, or castling with a frozen rook; a unit on a square marked promoted at the end that
// no promotion made. "" when it keeps them.
std::string marks_broken(const std::vector<Move>& game, const LegalityMarks& marks);

}  // namespace rebirth
