// Series proof games (Popeye's ser-dia n and ser-a=>b n): the side to move at the start makes
// every move, the other side passes, until the diagram stands on the board.

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/exact_set.h"
#include "core/parallel.h"
#include "proofgame/proof_search.h"
#include "rebirth/movegen.h"
#include "rebirth/popeye_order.h"
#include "rebirth/popeye_output.h"
#include "rebirth/proof_bound.h"

namespace rebirth {

namespace {

// The lines of one play of a series proof game of one length, in Popeye's order. A line is
// the series side's moves (the other side's passes left out); it reaches the target with its
// last move and not before, and no move but the last gives check (the other side could not
// pass). Positions known to fail with so many moves left are remembered (exact keys), in
// the play's shared table when there is one, at most kMaxFailuresPerDepth per number of moves
// left (as the other proof-game searches: past the cap failures are not remembered).
class SeriesSearch {
  public:
    SeriesSearch(const SolveContext& ctx, const Board& target, long limit, ProofFailures* shared,
                 const MoveLine* follow)
        : ctx_(ctx),
          target_(target),
          limit_(limit),
          bounded_(!ctx.initial.has_rules() && !ctx.initial.has_fairy()),
          shared_(shared),
          follow_(follow),
          needed_(target) {}

    // Appends every line of exactly `moves` moves of the side to move in `pos`.
    void run(Position& pos, int moves, std::vector<MoveLine>& lines) {
        prepare(moves, lines);
        search(pos, moves);
    }

    // Appends the lines of exactly `moves` moves that begin with `first` (legal in `pos`).
    void run_first(Position& pos, const Move& first, int moves, std::vector<MoveLine>& lines) {
        prepare(moves, lines);
        play(pos, first, moves);
    }

    // MaxSolutions stopped the search.
    bool stopped() const { return stop_; }

  private:
    void prepare(int moves, std::vector<MoveLine>& lines) {
        lines_ = &lines;
        if (shared_) return;
        failures_.resize(std::max<size_t>(failures_.size(), size_t(moves) + 1));
        for (auto& f : failures_)
            if (!f) f = std::make_unique<ExactSet>();
    }

    ExactSet* failures(int remaining) const {
        if (shared_) return shared_->at(remaining);
        return remaining < static_cast<int>(failures_.size()) ? failures_[size_t(remaining)].get() : nullptr;
    }

    // Whether the series side can still reach the target with `remaining` moves while the
    // other side never moves. Sound in orthodox chess: a unit of the other side stands where
    // the target has it already (it cannot come back there), and each of its units beyond
    // the target's is taken by a move of the series side.
    bool reachable(const Position& pos, int remaining) const {
        if (!bounded_) return true;
        const Color side = pos.side_to_move(), other = ~side;
        int extra = 0, wanted = 0;
        for (int s = 0; s < SQUARE_NB; ++s) {
            const Piece want = target_[s], on = pos.piece_on(Square(s));
            if (want.walk != NO_WALK && want.color == other) {
                ++wanted;
                if (on.walk != want.walk || on.color != other) return false;
            }
            if (on.walk != NO_WALK && on.color == other) ++extra;
        }
        if (extra - wanted > remaining) return false;
        if (!proof_bound_applies(pos, target_)) return true;
        // The other side's units that the target keeps never move and are never taken (no
        // other unit of that side could fill their squares): walls for the series side.
        Bitboard kept = 0;
        for (Bitboard b = pos.pieces(other); b;) {
            const Square s = pop_lsb(b);
            if (target_[s] == pos.piece_on(s)) kept |= square_bb(s);
        }
        return needed_.moves_needed(pos, side, fixed_units(pos, target_, kept)) <= remaining;
    }

    bool search(Position& pos, int remaining) {
        ctx_.visit();
        if (!reachable(pos, remaining)) return false;
        if (codes_.size() <= size_t(remaining)) codes_.resize(size_t(remaining) + 1);
        std::string& key = codes_[size_t(remaining)];  // one buffer a depth: no allocation a node
        ExactSet* failed = remaining > 1 ? failures(remaining) : nullptr;
        if (failed) {
            position_code(pos, key);
            if (failed->contains(key)) return false;
        }
        MoveList list;
        popeye_ordered_moves(pos, list);
        bool found = false;
        for (const Move& m : list) {
            if (stop_) break;
            if (play(pos, m, remaining)) found = true;
        }
        if (failed && !found && !stop_ && failed->size() < kMaxFailuresPerDepth) failed->insert(key);
        return found;
    }

    // Plays `m` in `pos` (restored after) and goes on from there.
    bool play(Position& pos, const Move& m, int remaining) {
        if (follow_ && !(stack_.size() < follow_->size() && m == (*follow_)[stack_.size()])) return false;
        const Color side = pos.side_to_move();
        UndoInfo u;
        pos.do_move(m, u);
        stack_.push_back(m);
        const bool there = board_matches(pos, target_);
        bool found = false;
        if (remaining == 1) {
            if (there) {
                lines_->push_back(stack_);
                found = true;
                if (limit_ > 0 && long(lines_->size()) >= limit_) stop_ = true;
            }
        } else if (!there && !pos.in_check()) {
            // The other side passes; it may not be left in check.
            Position next = pos;
            next.set_side_to_move_for_analysis(side);
            found = search(next, remaining - 1);
        }
        stack_.pop_back();
        pos.undo_move(m, u);
        return found;
    }

    static constexpr size_t kMaxFailuresPerDepth = size_t(1) << 21;
    const SolveContext& ctx_;
    const Board& target_;
    const long limit_;
    const bool bounded_;
    ProofFailures* const shared_;
    const MoveLine* const follow_;
    mutable MovesNeededCache needed_;                  // proof_moves_needed, remembered
    std::vector<std::unique_ptr<ExactSet>> failures_;  // without a shared table
    std::vector<std::string> codes_;                   // position_code's buffer per moves remaining
    MoveLine stack_;
    std::vector<MoveLine>* lines_ = nullptr;
    bool stop_ = false;
};

}  // namespace

namespace {

// How many moves deep series_proof_lines splits the search into parallel tasks. Deeper splits
// keep both cores busy but search more in all: the tasks start before the failure facts of
// transposed positions are known (ser-dia15 from BEISPIEL_proof_se_008 on 2 threads: 9.4 s
// at 2 levels, 10.7 s at 5, 11.0 s on one thread).
constexpr int kSplitLevels = 2;

// Appends the lines of exactly `moves` moves from `pos` (the series side to move), each first
// move's in its own task down to `levels` moves deep, then a SeriesSearch per position.
void split_lines(const SolveContext& ctx, const Board& target, const Position& pos, int moves, int levels,
                 ProofFailures* shared, std::vector<MoveLine>& lines) {
    MoveList list;
    popeye_ordered_moves(pos, list);
    std::vector<std::vector<MoveLine>> found(list.size());
    const Color side = pos.side_to_move();
    auto body = [&](size_t i) {
        Position at = pos;
        if (levels <= 1 || moves < 3) {
            SeriesSearch search(ctx, target, 0, shared, nullptr);
            search.run_first(at, list[i], moves, found[i]);
            return;
        }
        ctx.visit();
        UndoInfo u;
        at.do_move(list[i], u);
        // The play ends at the target; a check leaves the other side no pass.
        if (board_matches(at, target) || at.in_check()) return;
        at.set_side_to_move_for_analysis(side);
        split_lines(ctx, target, at, moves - 1, levels - 1, shared, found[i]);
        for (MoveLine& line : found[i]) line.insert(line.begin(), list[i]);
    };
    for_each_index(ctx.threads, list.size(), body);
    for (std::vector<MoveLine>& f : found) lines.insert(lines.end(), f.begin(), f.end());
}

}  // namespace

void series_proof_lines(const SolveContext& ctx, const Board& target, const Position& from, int moves, long& limit_left,
                        bool& stopped, std::vector<MoveLine>& lines, ProofFailures* shared, const MoveLine* follow) {
    const int threads = ctx.threads;
    if (limit_left > 0 || follow || threads == 1 || moves < 3) {
        Position pos = from;
        SeriesSearch search(ctx, target, limit_left, shared, follow);
        std::vector<MoveLine> found;  // the limit counts this search's lines
        search.run(pos, moves, found);
        if (limit_left > 0) {
            limit_left -= long(found.size());
            stopped = search.stopped();
        }
        lines.insert(lines.end(), found.begin(), found.end());
        return;
    }
    // One task per first move, and below it per second move, each on its own position copy,
    // all sharing the failure facts; the lines joined in move order.
    run_in_arena(threads, [&] { split_lines(ctx, target, from, moves, kSplitLevels, shared, lines); });
}

MoveLine series_game(const MoveLine& moves) {
    MoveLine game;
    for (const Move& m : moves) {
        if (!game.empty()) game.push_back(Move{});
        game.push_back(m);
    }
    return game;
}

std::string series_line_text(Position pos, const MoveLine& moves, Language lang, const char* mark) {
    std::string text;
    int number = 1;
    const Color side = pos.side_to_move();
    for (const Move& m : moves) {
        if (!text.empty()) {
            text += ' ';
            pos.set_side_to_move_for_analysis(side);  // the other side's pass
        }
        append_line_move(text, pos, m, lang, true, number, true);
    }
    return "\n" + text + mark;
}

}  // namespace rebirth
