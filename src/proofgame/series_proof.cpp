// Series proof games (Popeye's ser-dia n and ser-a=>b n): the side to move at the start makes
// every move, the other side passes, until the diagram stands on the board.

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/exact_set.h"
#include "proofgame/proof_search.h"
#include "rebirth/movegen.h"
#include "rebirth/popeye_order.h"
#include "rebirth/popeye_output.h"
#include "rebirth/proof_bound.h"

namespace rebirth {

namespace {

// The lines of one play of a series proof game of one length, in Popeye's order. A line is
// the series side's moves with the other side's passes (null moves) between them; it reaches
// the target with its last move and not before, and no move but the last gives check (the
// other side could not pass). Positions known to fail with so many moves left are
// remembered (exact keys).
class SeriesSearch {
  public:
    SeriesSearch(const SolveContext& ctx, const Board& target, long limit)
        : ctx_(ctx), target_(target), limit_(limit), bounded_(!ctx.initial.has_rules() && !ctx.initial.has_fairy()) {}

    // Appends every line of exactly `moves` moves of the side to move in `pos`.
    void run(Position& pos, int moves, std::vector<std::vector<Move>>& lines) {
        lines_ = &lines;
        failures_.resize(std::max<size_t>(failures_.size(), size_t(moves) + 1));
        codes_.resize(failures_.size());
        for (auto& f : failures_)
            if (!f) f = std::make_unique<ExactSet>();
        search(pos, moves);
    }

    // MaxSolutions stopped the search.
    bool stopped() const { return stop_; }

  private:
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
        return !proof_bound_applies(pos, target_) || proof_moves_needed(pos, target_, side) <= remaining;
    }

    bool search(Position& pos, int remaining) {
        ctx_.visit();
        if (!reachable(pos, remaining)) return false;
        std::string& key = codes_[size_t(remaining)];  // one buffer a depth: no allocation a node
        const bool memo = remaining > 1;
        if (memo) {
            position_code(pos, key);
            if (failures_[size_t(remaining)]->contains(key)) return false;
        }
        MoveList list;
        popeye_ordered_moves(pos, list);
        const Color side = pos.side_to_move();
        bool found = false;
        for (const Move& m : list) {
            if (stop_) break;
            UndoInfo u;
            pos.do_move(m, u);
            stack_.push_back(m);
            const bool there = board_matches(pos, target_);
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
                stack_.push_back(Move{});
                if (search(next, remaining - 1)) found = true;
                stack_.pop_back();
            }
            stack_.pop_back();
            pos.undo_move(m, u);
        }
        if (memo && !found && !stop_) failures_[size_t(remaining)]->insert(key);
        return found;
    }

    const SolveContext& ctx_;
    const Board& target_;
    const long limit_;
    const bool bounded_;
    std::vector<std::unique_ptr<ExactSet>> failures_;
    std::vector<std::string> codes_;  // position_code's buffer per moves remaining
    std::vector<Move> stack_;
    std::vector<std::vector<Move>>* lines_ = nullptr;
    bool stop_ = false;
};

// Popeye's text of one line from `start`: "\n  1.Sg1-f3   2.e2-e3   3.Sf3-g1 dia", each move
// of the series side numbered, the passes left out.
std::string series_line_text(Position pos, const std::vector<Move>& moves, Language lang, const char* mark) {
    std::string text;
    int number = 1;
    const Color side = pos.side_to_move();
    for (const Move& m : moves) {
        if (m.is_null()) {
            pos.set_side_to_move_for_analysis(side);
            continue;
        }
        if (!text.empty()) text += ' ';
        append_line_move(text, pos, m, lang, true, number, true);
    }
    return "\n" + text + mark;
}

}  // namespace

bool solve_series_proof_game(const SolveContext& ctx, std::string& out) {
    const Stipulation& st = ctx.problem.stipulation;
    const Options& opt = ctx.problem.options;
    const bool dia = st.play == Stipulation::Play::ProofGame;
    if ((!dia && st.play != Stipulation::Play::AToB) || !st.series || st.intro > 0 || st.half_moves < 1) return false;
    if (!dia && !ctx.problem.start_board.has_value()) return false;
    const Board& target = ctx.problem.setup.board;
    const char* mark = dia ? " dia" : " a=>b";
    const Color first = ctx.initial.side_to_move();
    std::vector<Color> starters;
    if (!opt.half_duplex) starters.push_back(first);
    if (opt.duplex || opt.half_duplex) starters.push_back(~first);
    // Every length from one move (exact-: n only), shortest first, as Popeye lists them.
    const int shortest = st.exact ? st.half_moves : 1;
    std::string text;
    for (size_t r = 0; r < starters.size(); ++r) {
        Position root = ctx.initial;
        if (root.side_to_move() != starters[r]) root.set_side_to_move_for_analysis(starters[r]);
        // The side that passes may not stand in check.
        if (root.in_check(~starters[r])) {
            text += "\n";
            continue;
        }
        const long limit = opt.max_solutions ? std::max(*opt.max_solutions, 1) : 0;
        SeriesSearch search(ctx, target, limit);
        std::vector<std::vector<Move>> lines;
        bool stopped = false;
        for (int n = shortest; n <= st.half_moves && !stopped; ++n) {
            search.run(root, n, lines);
            // StopOnShortSolutions: no longer lines once lines shorter than the stipulation's.
            stopped = search.stopped() || (opt.stop_on_short_solutions && n < st.half_moves && !lines.empty());
        }
        for (std::vector<Move>& line : lines) {
            text += series_line_text(root, line, ctx.problem.language, mark);
            if (ctx.proof_games) ctx.proof_games->push_back({0, static_cast<int>(r), starters[r], std::move(line)});
        }
        if (stopped && ctx.partial) *ctx.partial = true;
        if (!stopped || r + 1 != starters.size()) text += "\n";
    }
    out += text;
    return true;
}

}  // namespace rebirth
