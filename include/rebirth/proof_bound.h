#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "rebirth/position.h"
#include "rebirth/types.h"

// Lower bounds for proof games (play towards a target diagram), from the empty-board
// distances of distance.h.
//
// Every unit of a side in the target ends on its square, each brought there by a distinct
// unit of that side (a piece of the same walk, or a pawn promoting on the way), so the side
// needs at least the least total, over the ways of giving each target square its own unit,
// of the fewest moves of that unit to get there (an assignment; less castling_saving: castling
// moves two units at once). A capture the other side's pawns must still make (a file change
// of one of their pawns on its way to a target pawn square, over every way of giving those
// squares their pawns: pawn_capture_ways, the least over the ways) takes a distinct unit of
// the side, which first goes to a square where that capture can land: one more row of the
// assignment, whose unit then has no target square. The fixed units (fixed_units: a pawn on its first square that
// the target keeps there, and the units that follow from those) never move again and are never captured: no unit enters
// or crosses their squares (distance.h, blocked_distances_as). A pawn changes file only by capturing, so its side needs
// at least as many captures as the least total file change over the ways of giving each target pawn its own pawn; each
// capture takes one unit of the other side that the target does not keep.
//
// Sound in orthodox chess only: no rules that move units by rebirth or otherwise, and no
// fairy walks on the board or in the target. proof_bound_applies says when.

namespace rebirth {

using Board = std::array<Piece, SQUARE_NB>;

// Whether proof_moves_needed and proof_captures_possible may be used for pos and target.
bool proof_bound_applies(const Position& pos, const Board& target);

// The fewest moves side c needs to bring its units onto their target squares; kFar
// (distance.h) when some target unit of c cannot be reached at all.
int proof_moves_needed(const Position& pos, const Board& target, Color c);
// The same with fixed_units(pos, target) given.
int proof_moves_needed(const Position& pos, const Board& target, Color c, Bitboard fixed);

// proof_moves_needed(pos, target, c, fixed) for one target, remembered: its value depends only
// on c's units (squares and walks), ~c's pawns and number of units, c's castling sides and
// `fixed`, which make the key of an entry; a lookup compares the whole key, so a value comes
// back only for equal inputs. Holds at most 2^16 values (a newer one replaces an older one
// in its slot); the table is allocated at the first call. One per thread: not thread-safe.
// Keeps a reference to the target.
class MovesNeededCache {
  public:
    explicit MovesNeededCache(const Board& target) : target_(target) {}
    int moves_needed(const Position& pos, Color c, Bitboard fixed);

  private:
    struct Entry {
        std::array<Bitboard, 9> key{};
        int stored = 0;  // the value plus one; 0: empty (all bytes zero)
    };
    const Board& target_;
    std::unique_ptr<Entry, void (*)(void*)> entries_{nullptr, nullptr};  // zeroed_table, at the first call
};

// proof_moves_needed(pos, target, c, fixed) before and after each move of c or capture of a
// unit of c, without working out the position after it. A plain move (no capture,
// promotion, castling or en passant) changes only the mover's costs in the assignments (its
// distances to c's target squares and to the squares where the captures of ~c's pawns land):
// the fixed units stay walls and c's castling rights only shrink. So each way's dual solution
// (assignment.h), with the mover's column price lowered to what its new costs allow, bounds
// that way's new assignment from below, and the least over the ways (less the castling
// saving) bounds the need after the move, counted with the same fixed units (which stay
// fixed). A unit leaving a target square of its walk adds that square as a row, priced as
// the other columns allow. A capture of a unit of c drops its column (at most 0); where pawns
// take or are taken the capture rows change, and the target squares' rows alone count, under
// the best way's prices. The search skips a move after which a side needs more moves than
// it has left. Keeps a reference to pos, whose units must not change while it is asked (it
// may be changed and restored in between, as a search does below the node: the distance
// rows are then worked out again when the tables they pointed into were dropped).
class MoveProgress {
  public:
    MoveProgress(const Position& pos, const Board& target, Color c, Bitboard fixed);
    ~MoveProgress();
    MoveProgress(MoveProgress&&) noexcept;
    MoveProgress(const MoveProgress&) = delete;
    MoveProgress& operator=(const MoveProgress&) = delete;
    // proof_moves_needed(pos, target, c, fixed).
    int need() const;
    // At most proof_moves_needed after the plain move of c's unit on `from` to `to`, counted
    // with the same fixed units; 0 (no verdict) for a fixed unit. With `captures_stay` false,
    // also after a capture that changes the other side's pawns (the rows of the captures
    // they must make are left out).
    int need_after(Square from, Square to, bool captures_stay = true) const;
    // need_after, worked out exactly: each assignment solved again with the mover's new costs
    // (need_after bounds them through the dual solutions, in O(columns) instead of O(n^3)).
    // At least need_after and at most proof_moves_needed after the move; 0 (no verdict) for
    // a fixed unit.
    int need_after_exact(Square from, Square to, bool captures_stay = true) const;
    // At most proof_moves_needed once the other side takes c's unit on `taken` (not en
    // passant), counted with the same fixed units; 0 (no verdict) for a fixed unit. With
    // `captures_stay` (the taker is a piece) the rows of the captures the other side's pawns
    // must make count; else (a pawn takes, changing file) they are left out.
    int need_without(Square taken, bool captures_stay = true) const;
    // need_without, worked out exactly (as need_after_exact).
    int need_without_exact(Square taken, bool captures_stay = true) const;

  private:
    friend class MoveProgressCache;
    struct Impl;
    MoveProgress(std::shared_ptr<Impl> impl, const Position& pos) : impl_(std::move(impl)), pos_(&pos) {}
    // impl_, rebuilt first when the distance tables it points into were dropped.
    const Impl& current() const;
    mutable std::shared_ptr<Impl> impl_;  // shared with a MoveProgressCache entry
    const Position* pos_;                 // the position asked about (the units the answers read)
};

// MoveProgress for one target, remembered: what it works out depends only on what
// MovesNeededCache's values depend on (c's units, ~c's pawns and number of units, c's castling
// sides, the fixed units), which make the key of an entry, compared whole on a lookup. The
// positions a search visits after a move of the other side that moves no pawn and takes
// nothing ask again for the same one. Holds at most 1024 (a newer one replaces an older one in
// its slot; those still in use stay alive); one worked out while other distance tables were in
// use is worked out again. The MoveProgress returned keeps a reference to pos, as one
// constructed directly. One per thread: not thread-safe. Keeps a reference to the target.
class MoveProgressCache {
  public:
    explicit MoveProgressCache(const Board& target);
    ~MoveProgressCache();
    MoveProgressCache(const MoveProgressCache&) = delete;
    MoveProgressCache& operator=(const MoveProgressCache&) = delete;
    // MoveProgress(pos, target, c, fixed).
    MoveProgress get(const Position& pos, Color c, Bitboard fixed);

  private:
    struct Entry;
    const Board& target_;
    std::vector<Entry> entries_;
};

// The distance rows (blocked_distances_as, the fixed units as walls, and the file edges of
// `cuts` when given) of a unit of walk w and colour c on s: [0] its own walk, and for a pawn [1]
// as a queen and [2] as a knight after promotion; all null for a unit on a fixed square or of
// a walk without tables.
using UnitRows = std::array<const std::uint8_t*, 3>;
UnitRows unit_rows(Bitboard fixed, Walk w, Color c, Square s);
UnitRows unit_rows(Bitboard fixed, Bitboard cuts, Walk w, Color c, Square s);

// The file edges no unit crosses till the end (cuts for blocked_distances_as, bit q: the edge
// between q and the square above it): for each pawn P, not fixed, one step behind a target
// pawn square Y of its side that P fills in every way of giving the target pawn squares of
// its side their own pawns (each pawn within its reach: steps, double steps and diagonal
// steps, the fixed units as walls; the file changes within the captures the side has left),
// the edge between P's square X and Y. Y is filled by a pawn of P's side (a promoted unit is
// never a pawn again), so by P; one rank leaves P no way off the file and back (that takes
// two captures), so P stands on X till it steps to Y and on Y after, never taken: no unit
// moves along the file from one of the two squares' sides to the other, and the distances
// may leave out those moves (P's own step apart).
// A pawn that already stands on a target pawn square it fills in every way never moves
// again: both edges beside it. Every edge when no way exists (no game goes on from pos: any
// bound holds), so that a move only adds cuts: the cuts of a position hold in the positions
// after it, and MoveProgress's bounds (worked out with them) stay below the needs after.
Bitboard file_cuts(const Position& pos, const Board& target, Bitboard fixed);

// The row of `rows` (those of a unit of walk w) that counts its moves to a target unit of walk
// `want`: its own walk's, a pawn's as a queen (for a queen, rook or bishop: a promoted rook or
// bishop never needs fewer moves than a queen) or as a knight; null when it never becomes one.
const std::uint8_t* row_for(const UnitRows& rows, Walk w, Walk want);

// The units that can never move again, whose squares no unit enters or crosses till the end:
// a pawn on its first square that the target keeps there, then, repeatedly, a pawn on a
// target pawn square of its side that no other pawn of its side can reach, and a piece on its
// side's first rank that the target keeps there and that has no move on a board where the
// fixed units are walls (kings and rooks only without castling rights).
Bitboard fixed_units(const Position& pos, const Board& target);
// The same, knowing that the units on `known` are fixed (those of the position before the
// last move, less the squares that move touched).
Bitboard fixed_units(const Position& pos, const Board& target, Bitboard known);

// Whether the kings, queens, rooks and bishops shut in on a side's first rank can still become
// the target's there: for each corridor of `fixed` (legality.h, first_rank_corridors: no unit
// but a knight gets in or out, and those units never pass one another but for one castling),
// the target's units are pos's with some taken, after at most one castling exchange while pos
// holds that right (corridor_order_kept). False proves that no game leads from pos to the
// target (a king and rook side by side in the wrong order after the right was lost; LG-121's
// Q, K, R on f1-h1 behind unmoved pawns when the target wants Q, R, K). Sound in orthodox chess
// only, with `fixed` from fixed_units.
bool corridors_allow(const Position& pos, const Board& target, Bitboard fixed);

// c's units on target squares of their own walk (settled: some least assignment of
// proof_moves_needed keeps them there, the distances being shortest paths).
Bitboard settled_units(const Position& pos, const Board& target, Color c);

// The units that stay on their squares till the end of every game in which each side c
// makes at most moves_left[c] more moves and its units end on their target squares: a unit
// of c (not a king, nor a rook that may still castle) on a target square of its walk, when
// every game where it does not end there needs more moves of c (proof_moves_needed with that
// unit kept off its square: another unit fills it, and the unit itself is taken or goes
// elsewhere), and a game where it leaves and comes back does too (a pawn never comes back; a
// piece makes two moves more than the least count, proof_moves_needed). Such a unit is never
// taken and never moves, so no unit enters or crosses its square: the squares may be added
// to the fixed units for the positions of the rest of the game with those budgets. `needs`
// (when given): proof_moves_needed(pos, target, c, fixed) of each side.
Bitboard settled_walls(const Position& pos, const Board& target, Bitboard fixed, std::array<int, COLOR_NB> moves_left,
                       const std::array<int, COLOR_NB>* needs = nullptr);

// settled_walls for one target, remembered per side: a side's walls depend only on what
// MovesNeededCache's values depend on (its units, the other side's pawns and number of units,
// its castling sides, the fixed units) and on its moves left, which make the key of an entry,
// compared whole on a lookup. Holds at most 2^14 entries (a newer one replaces an older one in
// its slot), allocated at the first call. One per thread: not thread-safe. Keeps a reference
// to the target.
class SettledWallsCache {
  public:
    explicit SettledWallsCache(const Board& target) : target_(target) {}
    // settled_walls(pos, target, fixed, moves_left, &needs); `needs`: proof_moves_needed(pos,
    // target, c, fixed) of each side.
    Bitboard walls(const Position& pos, Bitboard fixed, std::array<int, COLOR_NB> moves_left,
                   const std::array<int, COLOR_NB>& needs);

  private:
    struct Entry {
        std::array<Bitboard, 10> key{};  // all zero: empty (a real key's last word is not)
        Bitboard walls = 0;
    };
    const Board& target_;
    std::unique_ptr<Entry, void (*)(void*)> entries_{nullptr, nullptr};  // zeroed_table, at the first call
};

// 1 when castling may still save side c a move towards the target, else 0. Castling counts in
// the king's distances as its two-file step; what it saves is the rook's move to the castled
// square (one move from its corner, so at most one), a saving only when some target rook
// square of c is nearer to that square than to the corner: a castled rook that goes home or
// is taken saves nothing, and no side castles with a fixed unit between king and rook. A king
// that ends on its home square after castling needs at least three moves the distances count
// as none: no saving either.
int castling_saving(const Position& pos, const Board& target, Color c, Bitboard fixed);

// The captures side k's pawns must still make: for each target pawn of k that no pawn of k
// stands on and that no pawn of k on its file can reach (fixed pawns apart), so that the pawn
// that fills it changes file, the squares where that pawn's capture can land (the cones between
// the candidate pawns and the target square). Each such capture takes a distinct unit of ~k,
// which stands on that square (or, en passant, behind it) then. Fills `slots`, returns how
// many (at most 8).
int pawn_capture_slots(const Position& pos, const Board& target, Color k, Bitboard fixed,
                       std::array<Bitboard, 8>& slots);

// The captures side k's pawns must still make, per way of giving each target pawn of k (fixed
// ones apart) its own pawn of k: a pawn on file f that fills a target pawn on file g makes at
// least |g - f| captures, the j-th landing on file f + j * sign(g - f) between the pawn and the
// target square (their cones), each taking a distinct unit of ~k that stands on that square
// (or, en passant, behind it) then. Only ways whose captures k can still make (the units of ~k
// beyond those of the target) count. Each way is its list of slots, the squares where each
// capture can land; `ways` is filled with one list per way (none when no way exists: the
// target's pawns are out of reach). False (and `ways` empty) when there are more than
// `max_ways` ways: then use pawn_capture_slots.
struct PawnCaptureWay {
    int slots = 0;
    std::array<Bitboard, 16> squares{};
};
bool pawn_capture_ways(const Position& pos, const Board& target, Color k, Bitboard fixed,
                       std::vector<PawnCaptureWay>& ways, int max_ways);

// Whether side c's pawns can reach their target squares with the captures left to c (the
// units of ~c on the board beyond those in the target).
bool proof_captures_possible(const Position& pos, const Board& target, Color c);

}  // namespace rebirth
