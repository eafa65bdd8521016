#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "rebirth/assignment.h"
#include "rebirth/position.h"
#include "rebirth/proof_bound.h"
#include "rebirth/rules.h"

// Lower bounds for proof games under rebirth rules (the Circe family), where a unit also
// changes square without a move of its own.
//
// The model: a unit of colour c reaches a square by its own moves (each one move of c), by
// a move of its own that the rules extend (Anti-Circe: a capturer lands on its rebirth square;
// Mars Circe: a capture starts from the mover's rebirth square; Anti-Mars: a non-capture does)
// and by being captured and reborn (Circe: during a move of the other side, which captures at
// most one unit of c a move; Parrain: during c's next move). Rebirth squares are those of the
// rules' square function over every capture square; where that function depends on more
// than the unit and the capture square, a set that holds every square it can give: a queen's
// line or a knight's step from the capture square (Parrain, PWC, Equipollents), the classic
// squares of every walk (Couscous), the origins of the start position's units (Diagram, when
// make() is given the start), the captured unit's one move from the capture square
// (Take&Make), else every square (Super, Cage).
// The distance of a unit to a target unit is the fewest own moves over a graph of its
// (square, walk) states with those moves and rebirths (a pawn promotes on its last rank;
// moves as on an empty board: obstacles only add moves). A side then needs at least the least
// assignment of its units to its target squares, where the units are reborn at most k times
// in all (k: the other side's moves left): max(assignment with free rebirths, assignment
// without less the most k rebirths can save, one unit saving at most what one rebirth or
// what any number of them (two or more) spares it), less the castlings it can still make
// (one move each; more than one only where the king can be reborn on its home square, and
// when only the other side's captures bring it back, at most one more per move of the other
// side).
// Parrain's rebirth square is the capture square moved by the vector of a move of the orthodox
// walks: a queen's or a knight's step from it, or itself (castling's king + rook vectors),
// from the pawn's square or the square behind or before it (en passant).
//
// Covers reborn None, Captured, Capturer and Both with occupied Relaxed, Strict or Assassin,
// every square rule and the mirror, vertical-mirror and Frisch-auf adapters, Mars and
// Anti-Mars, with units of the orthodox walks only. Not: walk changes on rebirth (Clone,
// Chameleon), Atom, Kamikaze, Alsatian, Hydra, buried or lifted units (Volcanic,
// Parachute, Ultra) and rebirths waiting for the next capture (WaitCapture):
// RebirthBound::make gives null for those.

namespace rebirth {

class RebirthBound {
  public:
    // The model for `rules`, or null where it does not apply; `start` (the position play starts
    // from, whose units' origins Diagram Circe reborns them on) narrows Diagram Circe's squares.
    static std::unique_ptr<const RebirthBound> make(const RuleSet& rules, const Position* start = nullptr);

    // The fewest own moves a unit of colour c and walk w (KING..PAWN) on `from` needs to stand
    // on `to` with walk `as` when it is captured and reborn (at no move of its own) at most
    // `rebirths` times (0, 1, or 2 for any number); kFar (distance.h) where it never can.
    int distance(Color c, Walk w, Square from, Walk as, Square to, int rebirths) const;

    // The fewest moves side c needs to bring its units onto its target squares when the other
    // side has `other_left` moves left (at most that many captures of c's units) and c
    // `own_left`; kFar when a target unit of c is out of reach.
    int moves_needed(const Position& pos, const Board& target, Color c, int own_left, int other_left) const;
    // Whether a rebirth waits for the captured side's next move (Parrain, ContraParrain):
    // moves_needed then depends on the side to move.
    bool delayed_rebirth() const { return delayed_rebirth_; }

    // Whether the units of c beyond those of the target can all disappear in the moves left:
    // at most one a move of the other side, and under Circe Assassin or a capturer's relaxed
    // rebirth also one a move of c. True (no verdict) under rules removing more at once.
    bool surplus_possible(const Position& pos, const Board& target, Color c, int own_left, int other_left) const;

  private:
    friend class RebirthBoundCache;
    friend class RebirthProgress;
    RebirthBound() = default;
    // The most castlings that can spare a move each (`settled`: c's units on target squares of
    // their walk); moves_needed subtracts no more than king_way of them.
    int castlings(const Position& pos, const Board& target, Color c, int own_left, int other_left,
                  Bitboard settled) const;
    // The most all castlings together can spare by the king's way: its distance (without
    // rebirths) less its distance from a castled square; kFar when not worked out.
    int king_way(const Position& pos, const Board& target, Color c) const;
    // Anti-Mars: what a castling that lifts a rook onto its corner and leaves it there can
    // spare: at most one such castling in the rest of the game, two moves at most, none
    // without a rook target on a corner whose opposite corner right c still has in pos.
    int lift_spare(const Position& pos, const Board& target, Color c, int own_left) const;
    // The distances of a unit of c and walk KING + walk on `from` with at most `version` (0, 1,
    // 2: any number) rebirths: [(as - KING) * 64 + to]. Computed at the first call (from any
    // thread), then kept.
    using Row = std::array<std::uint8_t, 6 * 64>;
    const Row& row(int version, Color c, int walk, Square from) const;
    void compute_row(int version, Color c, int walk, Square from, Row& row) const;
    static constexpr int kRows = 3 * 2 * 6 * 64;
    std::unique_ptr<Row[]> dist_;  // [((version * 2 + c) * 6 + walk) * 64 + from], filled at first use
    mutable std::unique_ptr<std::atomic<bool>[]> ready_;  // whether that row is filled
    mutable std::mutex fill_;
    // Per colour, walk and square: where the unit goes by a rebirth (tele: captured; land: as a
    // capturer, after capturing there; shift: the square Mars or Anti-Mars moves start from).
    using SquareSets = std::array<std::array<std::array<Bitboard, 64>, 6>, 2>;
    SquareSets tele_{}, land_{}, shift_{};
    bool capturer_rebirth_ = false;
    bool shifted_ = false;
    bool promotes_ = false;
    // Castling: whether a king of colour c can be reborn on its home square (and castle again).
    std::array<bool, 2> king_regains_{false, false};
    std::array<bool, 2> rook_regains_{false, false};
    std::array<bool, 2> king_regains_by_own_capture_{false, false};  // a capturing king reborn at home
    bool captured_rebirth_ = false;
    bool delayed_rebirth_ = false;             // Parrain: reborn during the captured side's next move
    bool castles_from_anywhere_ = false;       // Anti-Mars castling (no king right, rooks lifted)
    bool castles_without_king_right_ = false;  // Mars Circe Rex Inclusive castling
    bool self_removal_ = false;                // a move of c may remove a unit of c (Assassin, relaxed capturer)
    bool many_removals_ = false;               // a move may remove more than one unit (no surplus verdict)
};

// RebirthBound::moves_needed after each plain move of c (no capture, promotion, castling or
// en passant), without working out the position after it, as MoveProgress (proof_bound.h):
// under the rules the bound covers such a move changes only the mover's square (captures
// make the rebirths), so the dual solution of the assignment with free rebirths (which the
// bound is at least), the mover's column repriced, bounds that assignment after the move;
// less the most castlings the bound could count then. A unit of c waiting for its Parrain
// rebirth costs nothing now and no less after the move (its rebirth may bring back one
// castling). Keeps references to the bound and pos, whose units must not change while it is
// asked.
class RebirthProgress {
  public:
    RebirthProgress(const RebirthBound& bound, const Position& pos, const Board& target, Color c, int own_left,
                    int other_left);
    // At most RebirthBound::moves_needed(position after the plain move from -> to, target, c,
    // own_left - 1, other_left); 0 when no verdict.
    int need_after(Square from, Square to) const;

  private:
    // The free-rebirth distance of column `column`'s unit to stand as `unit` (walk, square).
    int free_cost(int column, std::pair<Walk, Square> unit) const;
    const RebirthBound& bound_;
    const Position& pos_;
    Color c_;
    bool valid_ = false;
    int columns_ = 0, rows_ = 0;
    int waiting_ = -1;  // the column of a unit waiting for its Parrain rebirth
    std::array<Square, 16> squares_{};
    std::array<Walk, 16> walks_{};
    std::array<std::pair<Walk, Square>, 16> wanted_{};
    AssignmentDuals duals_;  // with the column prices raised (raise_column_prices)
    int dual_sum_ = 0;
    int castlings_ = 0;            // RebirthBound::castlings after a move of a unit that is not settled
    int castlings_leaving_ = 0;    // the same after a move of a settled unit
    int king_way_ = 0;             // RebirthBound::king_way after a move of another unit
    int king_way_after_step_ = 0;  // after a king's move
    int lift_spare_ = 0;           // RebirthBound::lift_spare
};

// RebirthBound::moves_needed for one bound and target, remembered: its value depends only on
// c's units (squares, and walks among the orthodox ones), c's castling rights, a unit of c
// waiting for its Parrain rebirth, the moves left to both sides and, under Parrain only, the
// side to move, which make the key of an entry; a lookup compares the whole key, so a value
// comes back only for equal inputs. Holds at most 2^16 values (a newer one replaces an older
// one in its slot), allocated at the first call. One per thread: not thread-safe. Keeps
// references to the bound and the target.
class RebirthBoundCache {
  public:
    RebirthBoundCache(const RebirthBound& bound, const Board& target) : bound_(bound), target_(target) {}
    int moves_needed(const Position& pos, Color c, int own_left, int other_left);

  private:
    struct Entry {
        std::array<Bitboard, 9> key{};
        int stored = 0;  // the value plus one; 0: empty (all bytes zero)
    };
    const RebirthBound& bound_;
    const Board& target_;
    std::unique_ptr<Entry, void (*)(void*)> entries_{nullptr, nullptr};  // zeroed_table, at the first call
};

}  // namespace rebirth
