#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rebirth/rules.h"
#include "rebirth/setup.h"
#include "rebirth/unmove.h"

namespace rebirth {

// Whether the position `s` (its side to move included) is not proved illegal under `rules`
// (null: orthodox chess; otherwise rules unmoves_supported accepts) by looking `depth`
// single moves back: it passes the static analysis sound under the rules, and (depth > 0)
// it is the game array with White to move or has a retraction whose earlier position passes
// the same test with depth - 1 (a retraction its history allows: fits_history). False is a proof of illegality: every
// legal position but the game array has a legal predecessor. True proves nothing. The static analysis: orthodox chess,
// legality.h's; under rebirth rules only what no rebirth, removal or Mars capture can undo: one king a side, at most 8
// pawns and 16 units, and no more pieces of a walk than the game array's plus the missing pawns (units are never
// created; a capture only moves or removes them, a promotion turns a pawn into a piece).
bool may_be_legal(const Setup& s, int depth, const RuleSet* rules = nullptr);

// Whether s is the game array with White to move (castling rights aside), no unit marked
// promoted.
bool is_game_array(const Setup& s);

// Whether retraction u of `position` fits the history the position claims: after a retracted
// en passant capture (position.ep_square set: the earlier position's last move was a double
// step through that square) only that double step; and no move of a king or rook that keeps
// a castling right in `position` (a retracted castling gives its king and rook theirs).
bool fits_history(const Setup& position, const UnMove& u, const RuleSet* rules = nullptr);

// The earlier position of retraction u of `position` (retract()), keeping the castling rights
// `position` has for the units u did not move (or take back from a rebirth square): a line of
// retractions carries the rights a retracted castling gave, which fits_history then reads.
Setup retract_keeping_rights(const Setup& position, const UnMove& u);

// Whether retraction u of `position` is refuted: its earlier position fails
// may_be_legal(·, depth, rules), or (orthodox chess) retro_cage.h's cage search proves it
// illegal. True is a proof that the diagram's last move was not u.
bool last_move_refuted(const Setup& position, const UnMove& u, int depth, const RuleSet* rules = nullptr);

// The second look at the last moves left (orthodox chess, two or more): each gets the order of
// its units' last moves (retro_order.h, kOrderNodes choices) and the static analysis with the
// pieces on their last ranks that retro_cage.h's promoted_on_its_square proves promoted there
// (kPromotedHereStates positions each) marked so; then, where 2 to kWiderCageAtMost kinds of
// last move are left and at most kWiderCageMovesAtMost moves (a kind: a walk's moves onto one
// square, captures or not, of one promotion: a pawn's f2xg3 taking any of five units, a rook's
// move to d1 from any of four squares), kDeeperLevels more single moves taken back, every
// position on the way against may_be_legal (depth 3) and the cage search (the last move is
// refuted when every line of retractions its history allows is, none reaching the game array),
// then the cage search again with kCageStatesForFew positions a region (cage_refutes_wide),
// then the retraction closure of its earlier position within kClosurePositionsForFew positions
// (retro_closure.h). `last` (the last moves left of `position`, or sequences whose first
// retraction is one) loses those it proves impossible; else it stays. On `threads` (0: all
// cores). `others`: the last moves left to the other side when either side may have moved last
// (janko's type A: the answer is all of them, so one move of a side is looked at again when
// the other has some; the wider searches still only where this side's moves are that few).
inline constexpr size_t kWiderCageAtMost = 4;
inline constexpr size_t kWiderCageMovesAtMost = 8;
inline constexpr long kCageStatesForFew = 5000;
inline constexpr int kDeeperLevels = 2;
inline constexpr long kClosurePositionsForFew = 1000;
inline constexpr long kPromotedHereStates = 1000;
inline constexpr long kOrderNodes = 20000;
template <typename Entry>
void narrow_few_last_moves(const Setup& position, std::vector<Entry>& last, const RuleSet* rules, int threads,
                           size_t others = 0);

// The last single move of the side that did not move in `position`, for each retraction
// that last_move_refuted(position, ·, depth, rules) leaves, in generate_unmoves' order, and
// with `wide` the second look (narrow_few_last_moves; without it for a search that asks
// often, the retractor's). If the diagram is legal (what a retro problem asserts), its last
// move is among them; when only one is left it is proved.
std::vector<UnMove> possible_last_moves(const Setup& position, int depth, const RuleSet* rules = nullptr,
                                        int threads = 1, bool wide = true);

// The last n single moves (the side that did not move in `position` first, then
// alternately), each sequence the last move first: every retraction sequence whose first
// retraction last_move_refuted(position, ·, 0, rules) leaves, whose positions pass the
// static analysis of may_be_legal, whose history is consistent (an en passant
// capture follows the double step it takes; a king or rook keeping a castling right has not
// moved, unless a rebirth put it back) and whose earliest position may_be_legal(·, depth,
// rules) does not refute. `threads` (1: in order on this thread; 0: all cores) work the
// retraction tree by work stealing; the sequences and their order do not depend on them.
std::vector<std::vector<UnMove>> possible_last_moves(const Setup& position, int n, int depth,
                                                     const RuleSet* rules = nullptr, int threads = 1);

// The retraction sequences of length k that start those of possible_last_moves(position, n,
// ...) for any n >= k (every position on the way passes the static analysis; the refutation
// search of the last one is left to last_moves_after), in its order: the parts a cluster
// hands out. Concatenating last_moves_after(position, p, n, depth, rules) over them in order
// gives possible_last_moves(position, n, depth, rules).
std::vector<std::vector<UnMove>> retraction_prefixes(const Setup& position, int k, const RuleSet* rules = nullptr);

// The sequences of possible_last_moves(position, n, depth, rules) that start with `prefix`
// (one of retraction_prefixes(position, k), k <= n), in order.
std::vector<std::vector<UnMove>> last_moves_after(const Setup& position, const std::vector<UnMove>& prefix, int n,
                                                  int depth, const RuleSet* rules = nullptr, int threads = 1);

// The answer to "what were the last n single moves?" (n = 1: "which was the last move?") for
// a diagram, as data: for each side asked, the sequences that side's retractions leave.
struct LastMovesAnswer {
    struct Side {
        Color moved_last = WHITE;
        Setup position;                              // the diagram with the other side to move
        std::vector<std::vector<UnMove>> sequences;  // the last move first
    };
    std::vector<Side> sides;
    // "unique" (one sequence in all: proved, if the diagram is legal as a retro problem
    // asserts), "none" (no side has one: proved) or "unresolved" (several are left).
    std::string verdict() const;
};

// janko's question on `diagram` (its side-to-move field is not used): `moved_last` the side
// that moved last, or both tried (janko's type A) in the order White, Black. n = 1 asks
// possible_last_moves(position, depth, ...), both sides' second look taking the other side's
// last moves into account (narrow_few_last_moves' `others`), n > 1
// possible_last_moves(position, n, depth, ...).
LastMovesAnswer last_moves(const Setup& diagram, int n, std::optional<Color> moved_last, int depth,
                           const RuleSet* rules = nullptr, int threads = 1);

// The type of a last move in the janko.at notation of the retro reference data: `K-` (a
// king, no capture), `QxR` (a queen took a rook), `P-` / `P--` (single / double step),
// `PxB=N`, `P-=Q`, `ep`, `O-O`, `O-O-O`. `position` is the diagram after the move.
std::string last_move_type(const Setup& position, const UnMove& u);

// A last move written as its forward move in the notation of the retro reference data:
// unit letter (none for pawns), departure, `x` and the taken unit's letter (none for en
// passant) or `-`, arrival, `=` and the promotion letter, `ep`, `+` for check: `Kf5xNe5`,
// `Kb3xPc3+`, `f4xg3ep+`, `c7xNd8=R+`, `a2-a3`, `O-O`. Under rebirth rules (`rules`) the
// move's effects follow in Popeye's brackets (`Nc3xPd5[+bPd7]`, `h3xPg2[bPg2->g2]`).
// `position` is the diagram after the move.
std::string janko_notation(const Setup& position, const UnMove& u, const RuleSet* rules = nullptr);

// A forward move `m`, legal in `before`, in the same notation (`Qh2-a2`, `h5xg6ep`,
// `Rd1xBd8`, `O-O-O`; under rebirth rules with Popeye's brackets), no check sign.
std::string forward_notation(const Setup& before, const Move& m, const RuleSet* rules = nullptr);

}  // namespace rebirth
