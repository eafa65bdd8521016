#include "rebirth/proof_builder.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iterator>
#include <memory>
#include <queue>

#include <tbb/enumerable_thread_specific.h>

#include "core/key_set.h"
#include "core/parallel.h"
#include "proofgame/proof_search.h"
#include "rebirth/distance.h"
#include "rebirth/movegen.h"
#include "rebirth/position.h"
#include "rebirth/proof_bound.h"

namespace rebirth {

namespace {

// What the estimate adds for the units each side must still take: nothing, the way to the
// other side's nearest units, or the way to the units the other side has beyond the target's
// of their walk.
enum class Takes { None, Nearest, ByWalk };

// A position of the search: the move that reached it from its parent (the start: none), so
// that a position is played again from the start when it is expanded (a few dozen moves)
// instead of being kept (tens of millions of positions in a long search).
struct Node {
    int parent = -1;
    Move move{};
    int played = 0;
};

// One build: the target and the bounds' caches, shared by the searches of every variant (their
// values depend only on the position and the target).
class Builder {
  public:
    Builder(const Setup& target, Bitboard frozen)
        : target_(target.board), side_(target.side_to_move), frozen_(frozen), needed_(target_) {
        for (int sq = 0; sq < SQUARE_NB; ++sq) {
            const Piece p = target_[sq];
            if (p.empty()) continue;
            ++kept_[p.color];
            ++target_walks_[p.color][p.walk];
            target_by_[p.color][p.walk] |= square_bb(Square(sq));
        }
    }

    // Whether pos is the target: its units, its side to move.
    bool reached(const Position& pos) const { return pos.side_to_move() == side_ && board_matches(pos, target_); }

    // One best-first search from `start` with this weight, the way to the units to take
    // counted or not (`walled`: round the fixed units); the game found, or nothing within
    // max_nodes or (when given) the deadline. With `hashed_ties`, positions of equal priority
    // are taken in an order set by a hash of the position instead of the order they were found
    // in: another part of a plateau of the estimate is searched first, and each order finds
    // games the other misses. `first` (when given): the least variant index that found a game
    // in this round; the search stops (its game would not be taken) once it falls below
    // `index`, its own.
    std::optional<std::vector<Move>> search(const Position& start, int weight, Takes takes, bool walled,
                                            bool hashed_ties, long max_nodes,
                                            std::optional<std::chrono::steady_clock::time_point> deadline,
                                            const std::atomic<size_t>* first = nullptr, size_t index = 0) {
        // Each search tries its exact ends afresh, as a search of its own: a new salt makes the
        // entries of the searches before it stale without clearing the table.
        if (failed_.empty()) failed_.assign(size_t(1) << kFailedBits, 0);
        salt_ = (salt_ + 1) * 0xD6E8FEB86659FD93ull;
        std::vector<Node> nodes;
        using Entry = std::pair<long, int>;  // (priority * 8 + tie, node), least first
        std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
        KeySet seen;
        // The moves from the start to node i.
        const auto game_to = [&](int i) {
            std::vector<Move> game;
            for (; nodes[size_t(i)].parent >= 0; i = nodes[size_t(i)].parent) game.push_back(nodes[size_t(i)].move);
            std::reverse(game.begin(), game.end());
            return game;
        };
        nodes.push_back({-1, Move{}, 0});
        seen.insert(start.key());
        if (reached(start)) return std::vector<Move>{};
        open.push({8 * long(weight) * estimate(start, takes, walled), 0});
        long expanded = 0;
        while (!open.empty()) {
            const int i = open.top().second;
            open.pop();
            if (++expanded > max_nodes) break;
            if ((expanded & 63) == 0 && ((deadline && std::chrono::steady_clock::now() > *deadline) ||
                                         (first && first->load(std::memory_order_relaxed) < index)))
                break;
            std::vector<Move> game = game_to(i);
            Position pos = start;
            for (const Move& m : game) {
                UndoInfo u;
                pos.do_move(m, u);
            }
            std::vector<Move> tail;
            if (finish(pos, tail)) {
                game.insert(game.end(), tail.begin(), tail.end());
                return game;
            }
            const int played = nodes[size_t(i)].played + 1;
            MoveList list;
            generate_legal(pos, list);
            for (const Move& m : list) {
                if (touched_squares(m) & frozen_) continue;  // a frozen unit never moves
                UndoInfo u;
                pos.do_move(m, u);
                if (seen.insert(pos.key())) {
                    const int h = estimate(pos, takes, walled);
                    if (h < 2 * kFar) {
                        nodes.push_back({i, m, played});
                        const long tie = hashed_ties ? long(((pos.key() * 0x9E3779B97F4A7C15ull) >> 60) & 7) : 0;
                        open.push({8 * (played + long(weight) * h) + tie, int(nodes.size()) - 1});
                    }
                }
                pos.undo_move(m, u);
            }
        }
        return std::nullopt;
    }

  private:
    // How far pos is from the target, in moves of both sides (2 * kFar: never): each side's
    // moves needed (proof_moves_needed, a lower bound), at least one capture of each unit of
    // the other side beyond the target's, plus those captures once more, so that a capture
    // that costs nothing else counts as progress; with `takes`, also each side's way to the
    // units it must still take: the sum, over as many of the other side's units (kings apart)
    // as it must take, of the fewest moves of one of its units onto their squares, the nearest
    // first, on an empty board or (`walled`) round the fixed units (never entering or crossing
    // their squares: a unit shut in behind them is reached only by the units that get in).
    int estimate(const Position& pos, Takes takes, bool walled) {
        std::array<int, COLOR_NB> surplus{}, need{};
        Bitboard fixed = 0;
        if (!needs(pos, surplus, need, &fixed)) return 2 * kFar;
        if (!walled) fixed = 0;
        int total = 0;
        for (Color c : {WHITE, BLACK}) total += std::max(need[c], surplus[~c]) + surplus[~c];
        if (takes == Takes::None) return total;
        for (Color c : {WHITE, BLACK}) {
            if (surplus[~c] <= 0) continue;
            if (takes == Takes::Nearest) {
                total += nearest_sum(pos, c, pos.pieces(~c) & ~pos.pieces(~c, KING), surplus[~c], fixed);
                continue;
            }
            // The victims by walk: per walk of the other side (kings apart), as many units as
            // it has beyond the target's of that walk, those off its target squares of that
            // walk first.
            for (int w = QUEEN; w <= PAWN; ++w) {
                const Bitboard units = pos.pieces(~c, Walk(w));
                const int excess = popcount(units) - target_walks_[~c][w];
                if (excess <= 0) continue;
                const Bitboard off = units & ~target_by_[~c][w];
                total += nearest_sum(pos, c, popcount(off) < excess ? units : off, excess, fixed);
            }
        }
        return total;
    }

    // The sum of the `count` least, over the units on `victims`, of the fewest moves of one of
    // c's units onto their squares (each at most 8), the fixed units' squares neither entered
    // nor crossed (a unit shut in behind them is taken only by a unit that gets in).
    static int nearest_sum(const Position& pos, Color c, Bitboard victims, int count, Bitboard fixed) {
        std::array<int, SQUARE_NB> near{};
        std::array<const std::uint8_t*, 48> rows{};
        int m = 0;
        for (Bitboard t = pos.pieces(c) & ~fixed; t;) {
            const Square from = pop_lsb(t);
            const Walk w = pos.piece_on(from).walk;
            rows[size_t(m++)] = blocked_distances_as(fixed, w, c, from, w);
            if (w == PAWN) {
                rows[size_t(m++)] = blocked_distances_as(fixed, PAWN, c, from, QUEEN);
                rows[size_t(m++)] = blocked_distances_as(fixed, PAWN, c, from, KNIGHT);
            }
        }
        int n = 0;
        for (Bitboard v = victims & ~fixed; v;) {
            const Square e = pop_lsb(v);
            int best = 8;
            for (int k = 0; k < m; ++k)
                if (rows[size_t(k)]) best = std::min(best, int(rows[size_t(k)][e]));
            near[size_t(n++)] = best;
        }
        std::sort(near.begin(), near.begin() + n);
        int sum = 0;
        for (int k = 0; k < std::min(count, n); ++k) sum += near[size_t(k)];
        return sum;
    }

    // Per side the units beyond the target's and the moves needed (proof_moves_needed), and
    // the fixed units (into `fixed_out` when given); false when no game reaches the target from
    // pos (a side with fewer units than the target, a first-rank corridor whose units cannot
    // come into the target's order, or a target unit out of reach).
    bool needs(const Position& pos, std::array<int, COLOR_NB>& surplus, std::array<int, COLOR_NB>& need,
               Bitboard* fixed_out = nullptr) {
        for (Color c : {WHITE, BLACK}) {
            surplus[c] = popcount(pos.pieces(c)) - kept_[c];
            if (surplus[c] < 0) return false;
        }
        const Bitboard fixed = fixed_units(pos, target_, frozen_);
        if (!corridors_allow(pos, target_, fixed)) return false;
        if (fixed_out) *fixed_out = fixed;
        for (Color c : {WHITE, BLACK}) {
            need[c] = needed_.moves_needed(pos, c, fixed);
            if (need[c] >= kFar) return false;
        }
        return true;
    }

    // Whether the bounds allow `plies` half-moves from a position whose side to move is stm:
    // each side's moves needed and captures (of the other side's surplus) within its moves.
    static bool within(const std::array<int, COLOR_NB>& surplus, const std::array<int, COLOR_NB>& need, Color stm,
                       int plies) {
        const int own = (plies + 1) / 2, other = plies / 2;
        return std::max(need[stm], surplus[~stm]) <= own && std::max(need[~stm], surplus[stm]) <= other;
    }

    // The fewest half-moves from pos that the bounds allow (proof_moves_needed and the
    // captures each side must make), of the parity that leaves the target's side to move;
    // -1 when none.
    int least_plies(const Position& pos) {
        std::array<int, COLOR_NB> surplus{}, need{};
        if (!needs(pos, surplus, need)) return -1;
        const Color stm = pos.side_to_move();
        for (int plies = 0; plies <= 2 * kFar; ++plies)
            if (within(surplus, need, stm, plies) && (plies % 2 == 0) == (stm == side_)) return plies;
        return -1;
    }

    // An exact end: a line of at most kFinishPlies half-moves from pos to the target, found by
    // a depth-first search within the bounds (each side's moves needed and captures within
    // its moves left), shortest first; false when there is none or the search ran out of
    // its nodes.
    bool finish(Position& pos, std::vector<Move>& line) {
        const int least = least_plies(pos);
        if (least < 0 || least > kFinishFrom) return false;
        finish_nodes_ = 0;
        for (int plies = least; plies <= least + kFinishMore; plies += 2)
            if (finish_dfs(pos, plies, line)) {
                std::reverse(line.begin(), line.end());
                return true;
            }
        return false;
    }

    bool finish_dfs(Position& pos, int plies, std::vector<Move>& line) {
        if (plies == 0) return reached(pos);
        if (++finish_nodes_ > kFinishNodes) return false;
        const Key key = pos.key() ^ (Key(plies) * 0x9E3779B97F4A7C15ull);
        if (failed_seen(key)) return false;
        std::array<int, COLOR_NB> surplus{}, need{};
        if (!needs(pos, surplus, need) || !within(surplus, need, pos.side_to_move(), plies)) {
            failed_remember(key);
            return false;
        }
        MoveList list;
        generate_legal(pos, list);
        for (const Move& m : list) {
            if (touched_squares(m) & frozen_) continue;  // a frozen unit never moves
            UndoInfo u;
            pos.do_move(m, u);
            const bool found = finish_dfs(pos, plies - 1, line);
            pos.undo_move(m, u);
            if (found) {
                line.push_back(m);
                return true;
            }
            if (finish_nodes_ > kFinishNodes) return false;
        }
        failed_remember(key);
        return false;
    }

    // The exact end is tried from positions this close (from 4 it took three times as long on
    // Retractor's legal labels and found no more games), with up to kFinishMore half-moves more,
    // kFinishNodes positions a try.
    static constexpr int kFinishFrom = 2;
    static constexpr int kFinishMore = 2;
    static constexpr long kFinishNodes = 1500;
    static constexpr int kFailedBits = 18;  // failed_ has 2^18 slots (2 MiB)

    const Board target_;
    const Color side_;
    const Bitboard frozen_;                                            // squares whose units never move
    std::array<int, COLOR_NB> kept_{};                                 // the target's units per side
    std::array<std::array<int, WALK_NB>, COLOR_NB> target_walks_{};    // and per walk
    std::array<std::array<Bitboard, WALK_NB>, COLOR_NB> target_by_{};  // and their squares
    MovesNeededCache needed_;                                          // proof_moves_needed, remembered
    // (position, half-moves) keys with no exact end, one per slot (a newer one replaces an older
    // one): a table that stays in the cache; a key forgotten is only searched again.
    std::vector<Key> failed_;
    Key salt_ = 0;  // mixed into the keys of failed_, a new one for each search
    long finish_nodes_ = 0;

    size_t failed_slot(Key k) const { return size_t((k * 0x9E3779B97F4A7C15ull) >> (64 - kFailedBits)); }
    bool failed_seen(Key k) const { return failed_[failed_slot(k)] == (k ^ salt_); }
    void failed_remember(Key k) { failed_[failed_slot(k)] = k ^ salt_; }
};

}  // namespace

std::optional<std::vector<Move>> build_proof_game(const Setup& target, const BuildLimits& limits, Bitboard frozen) {
    return build_game_between(parse_fen(kGameArrayFen), target, limits, frozen);
}

std::optional<std::vector<Move>> build_game_between(const Setup& from, const Setup& target, const BuildLimits& limits,
                                                    Bitboard frozen) {
    Position start;
    start.set(from);
    if (!proof_bound_applies(start, target.board)) return std::nullopt;
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                            std::chrono::duration<double>(limits.seconds));
    // The variants of the estimate, tried in rounds, each round with twice the time and nodes
    // of the one before, until the limits run out: the estimates suit different positions, the
    // two orders of equal priorities different plateaus, the two lightest weights (they expand
    // the most positions) the games no greedier search finds (LG-217), and the three walled ways
    // to the units to take (last) the games where units shut in behind fixed units are taken
    // where they stand, by the only units that get in (LG-145's knights taking a1, c1 and d1
    // behind a frozen king; LG-091, LG-235; LG-148 with the lighter weight).
    const struct {
        int weight;
        Takes takes;
        bool hashed_ties;
        bool walled = false;
    } variants[] = {{limits.weight, Takes::ByWalk, false},
                    {2 * limits.weight, Takes::ByWalk, false},
                    {limits.weight, Takes::Nearest, false},
                    {2 * limits.weight, Takes::Nearest, false},
                    {limits.weight, Takes::None, false},
                    {2 * limits.weight, Takes::None, false},
                    {limits.weight, Takes::ByWalk, true},
                    {2 * limits.weight, Takes::ByWalk, true},
                    {limits.weight, Takes::Nearest, true},
                    {2 * limits.weight, Takes::Nearest, true},
                    {limits.weight, Takes::None, true},
                    {2 * limits.weight, Takes::None, true},
                    {std::max(1, limits.weight / 2), Takes::Nearest, false},
                    {std::max(1, limits.weight / 4), Takes::Nearest, false},
                    {limits.weight, Takes::ByWalk, false, true},
                    {limits.weight, Takes::Nearest, false, true},
                    {std::max(1, limits.weight / 2), Takes::Nearest, false, true}};
    const size_t count = std::size(variants);
    const bool timed = limits.seconds > 0;
    // One builder a thread (its caches are not shared), made when a thread first needs one.
    tbb::enumerable_thread_specific<std::unique_ptr<Builder>> builders;
    for (long nodes = std::min(limits.max_nodes, 1000L), slice = 1;;
         nodes = std::min(2 * nodes, limits.max_nodes), slice *= 2) {
        // The round's variants, on `threads` threads: the game of the least variant that finds
        // one is taken, as one thread trying them in order would take it, so that without a
        // time limit the game does not depend on the thread count. A variant stops once an
        // earlier one has found a game; the earlier ones run on.
        std::vector<std::optional<std::vector<Move>>> games(count);
        std::atomic<size_t> first{count};
        const auto run = [&](size_t i) {
            if (first.load() < i) return;
            std::optional<std::chrono::steady_clock::time_point> deadline;
            if (timed) {
                const auto now = std::chrono::steady_clock::now();
                if (now >= end) return;
                deadline = std::min(now + std::chrono::milliseconds(50 * slice), end);
            }
            std::unique_ptr<Builder>& builder = builders.local();
            if (!builder) builder = std::make_unique<Builder>(target, frozen);
            const auto& v = variants[i];
            games[i] = builder->search(start, v.weight, v.takes, v.walled, v.hashed_ties, nodes, deadline, &first, i);
            if (!games[i]) return;
            for (size_t least = first.load(); i < least && !first.compare_exchange_weak(least, i);) {
            }
        };
        run_in_arena(limits.threads, [&] { for_each_index(limits.threads, count, run); });
        if (const size_t found = first.load(); found < count) return std::move(games[found]);
        if (timed && std::chrono::steady_clock::now() >= end) return std::nullopt;
        if (nodes >= limits.max_nodes) break;
    }
    return std::nullopt;
}

}  // namespace rebirth
