#pragma once

#include <array>
#include <memory>
#include <vector>

#include "rebirth/position.h"
#include "rebirth/proof_bound.h"

// Capture bound for proof games: a side that must still take units of the other side sends a
// unit to a square where one of them stands at that moment.
//
// A unit X of side o that the target does not keep is taken (in orthodox chess units only
// disappear by capture). o's other units then fill o's target squares: at least the least
// assignment without X (proof_bound.h's assignment with X left out, less one when o may still
// castle), so X makes at most `moves left to o` minus that many moves before it is taken, one
// more for a rook that may still castle (castling moves it with the king's move). It is taken
// on a square within that many moves of its own (distance.h, the fixed units as walls); en
// passant lands on the square its double step crossed, one pawn move from its start, or on
// the en passant square of the position when that capture is open now. Every
// capture the other side c still makes lands on a square of proof_capture_squares.
//
// Side c's capturer u goes from its square s through such a square q to its target square t
// (at least d(s, q) + d(q, t) moves; a pawn takes as a pawn or after promoting), or is itself
// taken later (at least d(s, q) moves, and no target square of its own). The fewest moves of
// c are at least the least assignment with one unit's costs replaced so, over the choice of
// that unit, less castling_saving, or less one when the capturer is a rook that may castle
// (its way to its castled square is then the king's move).
//
// Every unit a side o loses is taken where one of the other side's units stands then: on a
// square q that some unit of the taker reaches on its way to its target square, or before it
// is taken itself, within the taker's moves left (the dual bound of the taker's assignment,
// as above). So o's units fill o's target squares while each of its lost units (as many as
// the target lacks) goes into that reach: o's assignment with one more row per lost unit, a
// unit's cost there its fewest moves to a square of the reach (a pawn also to the square in
// front of one, taken en passant; a rook that may castle also from its castled square). All
// lost units count at once, not one at a time. A pawn of o changes file only by taking a unit
// of the other side, which then stands on a square where that side can lose one
// (proof_capture_squares with its moves left): o's pawns' ways as pawns, to their target
// squares and into the reach, take only there.
//
// Sound in orthodox chess only, where proof_bound_applies holds.

namespace rebirth {

// The squares on which a unit of `owner` can stand when it is taken, if owner makes at most
// `moves_left` more moves and its units end on their target squares; `fixed` is
// fixed_units(pos, target).
Bitboard proof_capture_squares(const Position& pos, const Board& target, Color owner, int moves_left, Bitboard fixed);

// Whether side c can bring its units onto their target squares with at most `moves_left`
// moves while one of its units takes on a square of `capture_squares` on its way. False only
// when every way needs more.
bool proof_capture_possible(const Position& pos, const Board& target, Color c, Bitboard fixed, Bitboard capture_squares,
                            int moves_left);

// A least count of moves for one pair: the unit on `unit` makes at least `moves` more moves in
// a game where it ends on the target square `to` (as proof_passage.h finds); the bound then
// counts at least that for the pair, wherever it counts the unit's way to `to`.
struct UnitCostFloor {
    Square unit = SQ_NONE;
    Square to = SQ_NONE;
    int moves = 0;
};

// The assignment problems of one side's units to its target squares that the bound starts
// from, remembered for one target: each depends only on the side's units (squares and walks),
// its castling sides and the fixed units, which make its key (compared whole on a lookup), and
// it is kept while blocked_distances_generation() is unchanged (it points into those
// tables). Holds at most 1024 per side (a newer one replaces an older one in its slot). One per
// thread: not thread-safe. Keeps a reference to the target.
class CaptureBoundCache {
  public:
    explicit CaptureBoundCache(const Board& target);
    ~CaptureBoundCache();
    CaptureBoundCache(const CaptureBoundCache&) = delete;
    CaptureBoundCache& operator=(const CaptureBoundCache&) = delete;
    struct Impl;

  private:
    friend bool proof_captures_feasible(const Position&, const Board&, Bitboard, std::array<int, COLOR_NB>,
                                        CaptureBoundCache*, const std::vector<UnitCostFloor>*);
    std::unique_ptr<Impl> impl_;
};

// The whole bound for both sides: false when a side that must still take (the target keeps
// fewer units of the other side than the board has) cannot make its captures and reach its
// target squares with moves_left[c] moves while the other side makes moves_left[~c]
// (proof_capture_squares of the other side, then proof_capture_possible), or when the other
// side cannot bring every unit it loses into the taker's reach and its other units onto
// their target squares with its moves. `cache` (when given, for the same target) saves
// recomputing the sides' assignments and reaches (the floors on a side's units are part of
// its entry's key, up to 12); `floors` (when given) raise the costs of their pairs.
bool proof_captures_feasible(const Position& pos, const Board& target, Bitboard fixed,
                             std::array<int, COLOR_NB> moves_left, CaptureBoundCache* cache = nullptr,
                             const std::vector<UnitCostFloor>* floors = nullptr);

}  // namespace rebirth
