#pragma once

#include <string>
#include <vector>

#include "rebirth/legality.h"
#include "rebirth/move.h"
#include "rebirth/proof_builder.h"
#include "rebirth/setup.h"
#include "rebirth/unmove.h"

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

// The positions judge_legality's retraction closure keeps at most.
inline constexpr long kClosurePositions = 2000;

// Judges `diagram` (its side to move; its castling rights claim that those kings and rooks
// never moved, its en passant square that the last move was that double step): illegal when
// analyze_orthodox_legality, may_be_legal(diagram, depth), the cage search (retro_cage.h) or
// the retraction closure within kClosurePositions positions (retro_closure.h) refutes it; legal when a game is
// found whose replay (every move legal where it is played) ends on the diagram's units and
// side to move with its castling rights kept and its en passant square the last move's: by
// build_proof_game to the diagram; else, when the diagram leaves at most 12 sequences of its
// last 1 (then 2) single moves (possible_last_moves), to the position one of them leads back
// to, followed by its moves (half of the nodes each); else to the position one of the first
// six lines of promotion_retractions leads back to, followed by its moves (half of the nodes
// each); else through one of the first four positions before the promotions
// (promotion_stagings): a game to it, then a line from it to the diagram (build_game_between).
// Within a time limit the promotion lines come first, with a quarter of the time (each search
// at most 2000 positions a variant), or an eighth when there are positions before the
// promotions, which then get half after the diagram's quarter; the diagram gets the rest (all
// the time the phases before it left), or with few sequences shares it with them in rounds of
// 1/16, 1/8 and 1/4 of it (half each), then the sequences a quarter and the diagram what is
// left. Else unresolved.
// With `marks` (legality.h): the static analysis takes them as claims, the game search never
// moves a frozen unit, and a game is believed only when it keeps them (marks_broken).
LegalityProof judge_legality(const Setup& diagram, int depth = 3, const BuildLimits& limits = {},
                             const LegalityMarks& marks = {});

// Retraction lines (orthodox) that take a promotion back, the diagram's last move first: for
// a queen, rook, bishop or knight of either side that may well be promoted (its side has more
// of its walk than the game array, or two bishops of one square colour, or its game-array
// bishop of that colour is shut in at home by pawns that never moved, or the unit has no empty
// square to have come from), at most `max_path` of its own moves back (nothing uncaptured) to
// its last rank, at most one move back of its side's pawn off a square the promoting pawn must
// come from (a capture taken back: the unit it took moves off next), and last the promotion
// itself (a capture's taken unit: the other side's game-array unit of that square when it has
// one there, else a queen, rook, bishop or knight); between them the other side's moves taken
// back, the unit it moved back before going back and forth where it can, else its king, else
// another unit (two tried each time), nothing uncaptured. Lines whose promotion took the
// other side's unit on its game-array square come first, then straight promotions, then the
// rest, shorter first; at most `max_lines`. A game to the position a line leads back to,
// followed by the line's moves, reaches the diagram: a promoted unit shut in (a bishop behind
// pawns that never moved) is a pawn again there, which the game search finds much easier.
std::vector<std::vector<UnMove>> promotion_retractions(const Setup& diagram, int max_path = 3, size_t max_lines = 16);

// Positions before the promotions of the diagram (orthodox), for a game in two legs: from the
// game array to such a position, then from it to the diagram. The units that may be taken
// back are those promotion_retractions follows (a queen, rook, bishop or knight that may well
// be promoted, among them one that no game-array square of its walk reaches round the pawns on
// the board) and those on `promoted`; each one taken back is gone, its pawn stands behind a
// promotion square of its side's last rank from which the unit's walk reaches its square round
// the pawns that never moved (straight behind, or diagonally behind with the other side's
// game-array unit of that square on it, taken by the promotion), one or two squares further
// back when it would attack the other side's king there. Several units never share a
// promotion square or a pawn square. All the units are taken back first, then all but one, and
// so on; for each number, choices whose taken units are missing from the diagram first, then
// straight promotions, then the fewest moves from the promotion squares. A position is kept
// only when the static analysis does not refute it, with the diagram's side to move or else
// the other, and once; at most `max_positions`. A unit with no way stays; none when more than
// 8 have one. A heuristic: such a position need not be on any game to the diagram; a game
// through it is.
std::vector<Setup> promotion_stagings(const Setup& diagram, Bitboard promoted = 0, size_t max_positions = 8);

// Why `game` (orthodox, from the game array) breaks `marks`: a move from or onto a frozen
// square, or castling with a frozen rook; a unit on a square marked promoted at the end that
// no promotion made; a game-array square marked taken there whose unit moves, is taken by a
// pawn or is never taken. "" when it keeps them.
std::string marks_broken(const std::vector<Move>& game, const LegalityMarks& marks);

}  // namespace rebirth
