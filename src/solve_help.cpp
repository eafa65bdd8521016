#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <array>
#include <memory>
#include <unordered_set>

#include <tbb/concurrent_unordered_set.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <vector>

#include "rebirth/movegen.h"
#include "rebirth/popeye_order.h"
#include "rebirth/notation.h"
#include "rebirth/rules.h"
#include "solve_internal.h"

namespace rebirth {

namespace {

// Popeye's goal mark after the last move of a line.
std::string goal_marker(Goal g) {
    switch (g) {
        case Goal::Mate: return " #";
        case Goal::Stalemate: return " =";
        case Goal::DoubleStalemate: return " ==";
        case Goal::Capture: return " x";
        case Goal::Check: return " +";
        case Goal::Any: return " ~";
        default: return "";
    }
}

// Goals whose mark stands for (or excludes) the check mark on the last move.
bool marker_replaces_check(Goal g) {
    return g == Goal::Mate || g == Goal::Check || g == Goal::Stalemate || g == Goal::DoubleStalemate;
}

// What follows the series side's moves in series play.
enum class Tail { None, Help, Self };

// One solving phase (set play, actual play, each half of a duplex).
struct Phase {
    bool series = false;
    int length = 0;      // help: half-moves; series: moves of the series side
    int min_length = 0;  // shortest length tried (short solutions)
    Tail tail = Tail::None;
    Color numbered = WHITE;  // the side whose moves carry move numbers
    Color goal_side = WHITE; // the side whose move reaches the goal
    bool intro = false;      // the line starts with "1..."
};

// Exhaustive search of one phase, writing Popeye's lines in its search order.
class PhaseSolver {
public:
    PhaseSolver(const SolveContext& ctx, const Phase& phase, const Position& root, int& solutions)
        : ctx_(ctx), phase_(phase), root_(root), solutions_(solutions) {}

    // Runs every length from the shortest; returns the phase's text. `interrupted` is set
    // when MaxSolutions or StopOnShortSolutions stopped the search.
    std::string run(bool& interrupted) {
        const Options& opt = ctx_.problem.options;
        const int step = phase_.series ? 1 : 2;
        // MaxSolutions needs the search order of one thread; otherwise the root moves are
        // searched in parallel and their lines joined in root order.
        const bool parallel = !opt.max_solutions && ctx_.threads != 1;
        if (!failures_) failures_ = std::make_shared<Failures>();
        for (int len = phase_.min_length; len <= phase_.length && !stop_; len += step) {
            const int before = found_;
            Position pos = root_;
            stack_.clear();
            if (parallel)
                parallel_root(len);
            else if (phase_.series)
                series(pos, len);
            else
                help(pos, len);
            if (!stop_ && opt.stop_on_short_solutions && found_ > before && len < phase_.length) stop_ = true;
        }
        interrupted = stop_;
        return text_;
    }

private:
    // Searches each root move of a play of `len` in its own solver, in parallel, and joins
    // their lines in root-move order (the order one thread would print).
    void parallel_root(int len) {
        MoveList list;
        popeye_ordered_moves(root_, list);
        std::vector<std::string> texts(list.size());
        std::vector<int> found(list.size(), 0);
        const int threads = ctx_.threads > 0 ? ctx_.threads : tbb::this_task_arena::max_concurrency();
        tbb::task_arena arena(threads);
        arena.execute([&] {
            tbb::parallel_for(0, list.size(), [&](int i) {
                int local_solutions = 0;
                PhaseSolver sub(ctx_, phase_, root_, local_solutions);
                sub.failures_ = failures_;  // failures are facts about positions: shared
                Position pos = root_;
                if (phase_.series)
                    sub.series_move(pos, list[i], len, pos.side_to_move());
                else
                    sub.help_move(pos, list[i], len, pos.side_to_move());
                texts[i] = std::move(sub.text_);
                found[i] = sub.found_;
            });
        });
        for (int i = 0; i < list.size(); ++i) {
            text_ += texts[i];
            found_ += found[i];
            solutions_ += found[i];
        }
    }

    bool limit_reached() const {
        const auto& max = ctx_.problem.options.max_solutions;
        return max && solutions_ >= *max;
    }

    // Help play: `remaining` half-moves, the last one reaching the goal.
    bool help(Position& pos, int remaining) {
        ctx_.visit();
        if (remaining > 1 && failed(pos, remaining)) return false;
        MoveList list;
        popeye_ordered_moves(pos, list);
        const Color mover = pos.side_to_move();
        bool found = false;
        for (const Move& m : list) {
            if (stop_) break;
            if (help_move(pos, m, remaining, mover)) found = true;
        }
        if (!found && remaining > 1 && !stop_) remember_failure(pos, remaining);
        return found;
    }

    // Help play after move m of `mover` (played and taken back here).
    bool help_move(Position& pos, const Move& m, int remaining, Color mover) {
        bool found = false;
        UndoInfo u;
        pos.do_move(m, u);
        stack_.push_back(m);
        if (remaining == 1) {
            if (mover == phase_.goal_side && goal_reached(pos, u, ctx_.goal)) {
                emit();
                found = true;
            }
        } else if (!(mover == phase_.goal_side && goal_reached(pos, u, ctx_.goal))) {
            // A move of the goal side that reaches the goal early ends the play there.
            found = help(pos, remaining - 1);
        }
        stack_.pop_back();
        pos.undo_move(m, u);
        return found;
    }

    // Series play: `remaining` moves of the series side, then the tail.
    bool series(Position& pos, int remaining) {
        ctx_.visit();
        if (failed(pos, remaining)) return false;
        MoveList list;
        popeye_ordered_moves(pos, list);
        const Color side = pos.side_to_move();
        bool found = false;
        for (const Move& m : list) {
            if (stop_) break;
            if (series_move(pos, m, remaining, side)) found = true;
        }
        if (!found && !stop_) remember_failure(pos, remaining);
        return found;
    }

    // Series play after move m of the series side (played and taken back here).
    bool series_move(Position& pos, const Move& m, int remaining, Color side) {
        bool found = false;
        UndoInfo u;
        pos.do_move(m, u);
        stack_.push_back(m);
        if (remaining == 1) {
            found = finish_series(pos, u);
        } else if (!pos.in_check() && !(phase_.tail == Tail::None && goal_reached(pos, u, ctx_.goal))) {
            // The opponent passes: it may not be left in check.
            Position next = pos;
            next.set_side_to_move_for_analysis(side);
            stack_.push_back(Move{});
            found = series(next, remaining - 1);
            stack_.pop_back();
        }
        stack_.pop_back();
        pos.undo_move(m, u);
        return found;
    }

    // After the series side's last move: the goal (ser-#), the opponent's goal move
    // (ser-h#) or the opponent's forced goal move (ser-s#).
    bool finish_series(Position& pos, const UndoInfo& u) {
        if (phase_.tail == Tail::None) {
            if (!goal_reached(pos, u, ctx_.goal)) return false;
            emit();
            return true;
        }
        MoveList replies;
        popeye_ordered_moves(pos, replies);
        if (phase_.tail == Tail::Self) {
            if (replies.empty()) return false;
            for (const Move& r : replies) {
                UndoInfo ru;
                pos.do_move(r, ru);
                const bool ok = goal_reached(pos, ru, ctx_.goal);
                pos.undo_move(r, ru);
                if (!ok) return false;
            }
        }
        bool found = false;
        for (const Move& r : replies) {
            if (stop_) break;
            UndoInfo ru;
            pos.do_move(r, ru);
            if (goal_reached(pos, ru, ctx_.goal)) {
                stack_.push_back(r);
                emit();
                stack_.pop_back();
                found = true;
            }
            pos.undo_move(r, ru);
        }
        return found;
    }

    bool failed(const Position& pos, int remaining) const {
        return remaining < kMaxDepth && failures_->by_depth[remaining].count(pos.exact_key());
    }
    void remember_failure(const Position& pos, int remaining) {
        if (remaining < kMaxDepth) failures_->by_depth[remaining].insert(pos.exact_key());
    }

    // Writes the line on the stack (null moves are the opponent's passes in series play).
    void emit() {
        std::string line = "\n";
        int number = 1;
        if (phase_.intro) {
            line += "  1...";
            number = 2;
        }
        Position pos = root_;
        const Language lang = ctx_.problem.language;
        for (size_t i = 0; i < stack_.size(); ++i) {
            const Move& m = stack_[i];
            if (m.is_null()) {
                pos.set_side_to_move_for_analysis(~pos.side_to_move());
                continue;
            }
            const bool last = i + 1 == stack_.size();
            if (pos.side_to_move() == phase_.numbered) {
                char buf[16];
                std::snprintf(buf, sizeof buf, "%3d.", number++);
                line += buf;
            }
            line += move_to_popeye(pos, m, false, lang);
            UndoInfo u;
            pos.do_move(m, u);
            if (!last || !marker_replaces_check(ctx_.goal))
                if (pos.in_check()) line += " +";
            if (last)
                line += goal_marker(ctx_.goal);
            else
                line += ' ';
        }
        text_ += line;
        ++found_;
        ++solutions_;
        if (limit_reached()) stop_ = true;
    }

    const SolveContext& ctx_;
    Phase phase_;
    const Position& root_;
    int& solutions_;
    int found_ = 0;
    bool stop_ = false;
    std::vector<Move> stack_;
    // Positions (exact keys) known to have no solution, by moves remaining; shared by the
    // threads of one phase.
    static constexpr int kMaxDepth = 64;
    struct Failures {
        std::array<tbb::concurrent_unordered_set<std::string>, kMaxDepth> by_depth;
    };
    std::shared_ptr<Failures> failures_;
    std::string text_;
};

// The phase description of a stipulation played with `first` moving first.
Phase make_phase(const Stipulation& st, Color first, int half_moves) {
    Phase ph;
    ph.series = st.series;
    if (st.series) {
        ph.tail = st.play == Stipulation::Play::Help ? Tail::Help
                  : st.play == Stipulation::Play::Self ? Tail::Self
                                                       : Tail::None;
        ph.length = ph.tail == Tail::None ? half_moves : half_moves - 1;
        ph.min_length = st.exact ? ph.length : 1;
        ph.numbered = first;
        ph.goal_side = ph.tail == Tail::None ? first : ~first;
        ph.intro = false;
    } else {
        ph.length = half_moves;
        ph.min_length = st.exact ? half_moves : (half_moves % 2 ? 1 : 2);
        ph.goal_side = half_moves % 2 ? first : ~first;
        ph.numbered = ~ph.goal_side;
        ph.intro = first != ph.numbered;
    }
    return ph;
}

}  // namespace

bool solve_help_or_series(const SolveContext& ctx, std::string& out) {
    const Stipulation& st = ctx.problem.stipulation;
    const Options& opt = ctx.problem.options;
    if (ctx.goal == Goal::Unsupported || st.intro > 0) return false;
    if (st.series) {
        if (st.play != Stipulation::Play::Direct && st.play != Stipulation::Play::Help &&
            st.play != Stipulation::Play::Self)
            return false;
    } else if (st.play != Stipulation::Play::Help) {
        return false;
    }
    const Color first = ctx.initial.side_to_move();

    struct Run {
        Color first;
        int half_moves;
        bool set_play;
    };
    std::vector<Run> runs;
    if (opt.set_play && !st.series && st.half_moves > 1) runs.push_back({~first, st.half_moves - 1, true});
    if (!opt.half_duplex) runs.push_back({first, st.half_moves, false});
    if (opt.duplex || opt.half_duplex) runs.push_back({~first, st.half_moves, false});

    std::string text;
    bool interrupted = false;
    for (const Run& r : runs) {
        Phase ph = make_phase(st, r.first, r.half_moves);
        if (r.set_play) {
            // Set play keeps the numbering of the actual play: the first move is "1...".
            const Phase actual = make_phase(st, first, st.half_moves);
            ph.numbered = actual.numbered;
            ph.goal_side = actual.goal_side;
            ph.intro = r.first != ph.numbered;
        }
        Position root = ctx.initial;
        if (root.side_to_move() != r.first) root.set_side_to_move_for_analysis(r.first);
        if (root.in_check(~r.first)) {
            text += "\n";
            continue;
        }
        int solutions = 0;
        PhaseSolver solver(ctx, ph, root, solutions);
        interrupted = false;
        text += solver.run(interrupted);
        if (interrupted && ctx.partial) *ctx.partial = true;
        if (!interrupted || &r != &runs.back()) text += "\n";
    }
    out += text;
    return true;
}

}  // namespace rebirth
