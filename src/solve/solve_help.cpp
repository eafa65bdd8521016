#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include <vector>

#include "core/exact_set.h"
#include "core/parallel.h"
#include "rebirth/goal_bound.h"
#include "rebirth/movegen.h"
#include "rebirth/notation.h"
#include "rebirth/popeye_order.h"
#include "rebirth/rules.h"
#include "solve/help_pictures.h"
#include "solve/solve_internal.h"

namespace rebirth {

namespace {

// What follows the series side's moves in series play (None, Help, Self), or the help moves
// in help-self and help-reflex play (Self: hs, Reflex: hr).
enum class Tail { None, Help, Self, Reflex };

// One solving phase (set play, actual play, each half of a duplex).
struct Phase {
    bool series = false;
    int length = 0;      // help: half-moves; series: moves of the series side
    int min_length = 0;  // shortest length tried (short solutions)
    Tail tail = Tail::None;
    Color numbered = WHITE;   // the side whose moves carry move numbers
    Color goal_side = WHITE;  // the side whose move reaches the goal
    bool intro = false;       // the line starts with "1..."
    bool skipped = false;     // set play of h#n.5: "1...  ..." for the move left out (PlayLineStyle)
    // Introductory moves (n->): up to `intro_moves` series moves of `intro_side` before the
    // main play, whose numbering restarts at 1 after them.
    int intro_moves = 0;
    Color intro_side = WHITE;
};

// One line found: its moves from the phase's root (null moves: passes), and for intro play
// the index of the main play's first move (-1: none).
struct FoundLine {
    std::vector<Move> moves;
    int restart = -1;
};
using Lines = std::vector<FoundLine>;

// Exhaustive search of one phase, collecting its lines in Popeye's order.
class PhaseSolver {
  public:
    PhaseSolver(const SolveContext& ctx, const Phase& phase, const Position& root, int& solutions)
        : ctx_(ctx),
          phase_(phase),
          root_(root),
          solutions_(solutions),
          bounded_(goal_bound_applies(root, ctx.goal, ~phase.goal_side)) {}

    // The moves of pos in Popeye's order; `final`: the move that must reach the goal (help
    // play's last move, series play's last move or the opponent's goal move in ser-h), which
    // Popeye generates with its mating-move generator for mate and check goals.
    void ordered(const Position& pos, MoveList& list, bool final) const {
        if (final && final_move_order(pos, ctx_.goal))
            popeye_ordered_final_moves(pos, list);
        else
            popeye_ordered_moves(pos, list);
    }

    // Runs every length from the shortest; returns the phase's lines. `interrupted` is set
    // when MaxSolutions or StopOnShortSolutions stopped the search.
    const Lines& run(bool& interrupted) {
        const Options& opt = ctx_.problem.options;
        // With intro moves the root lengths are those of the intro (1..n moves); the main
        // play's lengths are tried after each intro.
        int first = 0, step = 1, last = 0;
        lengths(first, step, last);
        // MaxSolutions needs the search order of one thread; otherwise the root moves are
        // searched in parallel and their lines joined in root order.
        const bool parallel = !opt.max_solutions;
        if (!failures_) failures_ = std::make_shared<Failures>();
        for (int len = first; len <= last && !stop_; len += step) {
            const int before = found_;
            Position pos = root_;
            stack_.clear();
            guide_ = make_guide(len);
            if (parallel && len > 0)
                parallel_root(len);
            else
                start(pos, len);
            if (!stop_ && opt.stop_on_short_solutions && found_ > before && len < last) stop_ = true;
        }
        interrupted = stop_;
        return lines_;
    }

    // The root lengths of run(): first, step and last.
    void lengths(int& first, int& step, int& last) const {
        const bool intro = phase_.intro_moves > 0;
        step = phase_.series || intro ? 1 : 2;
        first = intro ? 1 : phase_.min_length;
        last = intro ? phase_.intro_moves : phase_.length;
    }

    // How many lengths run() tries (when nothing stops it early).
    int length_count() const {
        int first = 0, step = 1, last = 0;
        lengths(first, step, last);
        return first > last ? 0 : (last - first) / step + 1;
    }
    // The shortest length run() tries.
    int first_length() const {
        int first = 0, step = 1, last = 0;
        lengths(first, step, last);
        return first;
    }

    // The lines of root move m alone, per length of run() (as parallel_root computes them
    // for that move); `found` gets the number of lines.
    std::vector<Lines> root_parts(const Move& m, int& found) {
        if (!failures_) failures_ = std::make_shared<Failures>();
        prepare_guides();
        int first = 0, step = 1, last = 0;
        lengths(first, step, last);
        std::vector<Lines> parts;
        found = 0;
        for (int len = first; len <= last; len += step) {
            Lines lines;
            int n = 0;
            root_item(m, len, lines, n);
            parts.push_back(std::move(lines));
            found += n;
        }
        return parts;
    }

    // The replies after root move m in Popeye's order when the lines of m split by them
    // (plain help play, where m does not end the play at once); otherwise none. A play of
    // one half-move (m alone) goes with the first reply's share.
    std::vector<Move> reply_moves(const Move& m) const {
        if (phase_.series || phase_.intro_moves > 0 || phase_.tail != Tail::None) return {};
        Position pos = root_;
        const Color mover = pos.side_to_move();
        UndoInfo u;
        pos.do_move(m, u);
        if (mover == phase_.goal_side && goal_reached(pos, u, ctx_.goal)) return {};
        MoveList replies;
        popeye_ordered_moves(pos, replies);
        return {replies.begin(), replies.end()};
    }

    // The lines starting with root move m and reply r (one of reply_moves(m)), per length of
    // run(): the share of root_parts' lines for that reply (second_ply's for 3 half-moves or
    // more). The play of m alone belongs to the `first` reply's share.
    std::vector<Lines> reply_parts(const Move& m, const Move& r, bool first_reply, int& found) {
        if (!failures_) failures_ = std::make_shared<Failures>();
        prepare_guides();
        int first = 0, step = 1, last = 0;
        lengths(first, step, last);
        std::vector<Lines> parts;
        found = 0;
        for (int len = first; len <= last; len += step) {
            // One half-move: m alone. Two: the replies are final moves, whose order (Popeye's
            // mating-move generator) may differ from reply_moves'; both go whole with the
            // first reply's share.
            if (len <= 2) {
                Lines lines;
                int n = 0;
                if (first_reply) root_item(m, len, lines, n);
                parts.push_back(std::move(lines));
                found += n;
                continue;
            }
            Position pos = root_;
            UndoInfo u;
            pos.do_move(m, u);
            ctx_.visit();
            Lines lines;
            reply_lines(pos, m, r, len, lines, found);
            parts.push_back(std::move(lines));
        }
        return parts;
    }

    // reply_parts of every reply (reply_moves(m)) in parallel with shared failure facts; a
    // reply not started by `deadline` (the first always is) is left empty.
    std::vector<std::optional<std::vector<Lines>>> replies_parts(const Move& m, const std::vector<Move>& replies,
                                                                 std::chrono::steady_clock::time_point deadline) {
        if (!failures_) failures_ = std::make_shared<Failures>();
        std::vector<std::optional<std::vector<Lines>>> out(replies.size());
        for_each_index(ctx_.threads, replies.size(), [&](size_t j) {
            if (j > 0 && std::chrono::steady_clock::now() > deadline) return;
            int found = 0;
            out[j] = reply_parts(m, replies[j], j == 0, found);
        });
        return out;
    }

  private:
    // Searches each root move of a play of `len` in its own solver, in parallel, and joins
    // their lines in root-move order (the order one thread would print).
    void parallel_root(int len) {
        MoveList list;
        const bool plain = !phase_.series && phase_.intro_moves == 0 && phase_.tail == Tail::None;
        ordered(root_, list, plain && len == 1);
        std::vector<Lines> found_lines(list.size());
        std::vector<int> found(list.size(), 0);
        if (ctx_.control) ctx_.control->start_root(list.size());
        run_in_arena(ctx_.threads, [&] {
            for_each_index(ctx_.threads, size_t(list.size()), [&](size_t i) {
                root_item(list[i], len, found_lines[i], found[i]);
                if (ctx_.control) ctx_.control->root_move_done();
            });
        });
        for (int i = 0; i < list.size(); ++i) {
            lines_.insert(lines_.end(), found_lines[i].begin(), found_lines[i].end());
            found_ += found[i];
            solutions_ += found[i];
        }
    }

    // The lines of a play of `len` starting with root move m, in their own solver (plain
    // help play split once more by second_ply); `found` gets their number.
    void root_item(const Move& m, int len, Lines& lines, int& found) {
        const bool plain_help = !phase_.series && phase_.intro_moves == 0 && phase_.tail == Tail::None && len >= 3;
        if (plain_help) {
            second_ply(m, len, lines, found);
            return;
        }
        int local_solutions = 0;
        PhaseSolver sub(ctx_, phase_, root_, local_solutions);
        sub.failures_ = failures_;  // failures are facts about positions: shared
        sub.guide_ = guide_for(len);
        Position pos = root_;
        sub.root_move(pos, m, len);
        lines = std::move(sub.lines_);
        found = sub.found_;
    }

    // Help play of length `len` after root move m1, split once more: each reply is searched
    // in its own task (nested in the root's), the lines joined in reply order into `lines`.
    void second_ply(const Move& m1, int len, Lines& lines, int& found) {
        Position pos = root_;
        const Color mover = pos.side_to_move();
        UndoInfo u;
        pos.do_move(m1, u);
        ctx_.visit();
        // As help_move: a move of the goal side that reaches the goal early ends the play.
        if (mover == phase_.goal_side && goal_reached(pos, u, ctx_.goal)) return;
        MoveList replies;
        popeye_ordered_moves(pos, replies);
        std::vector<Lines> found_lines(replies.size());
        std::vector<int> counts(replies.size(), 0);
        for_each_index(ctx_.threads, size_t(replies.size()),
                       [&](size_t j) { reply_lines(pos, m1, replies[j], len, found_lines[j], counts[j]); });
        for (int j = 0; j < replies.size(); ++j) {
            lines.insert(lines.end(), found_lines[j].begin(), found_lines[j].end());
            found += counts[j];
        }
    }

    // The lines of a help play of `len` half-moves that go on with reply r from `after`, the
    // position after root move m1, searched in a solver of their own (sharing the failure
    // facts): appended to `lines`, their number added to `found`.
    void reply_lines(const Position& after, const Move& m1, const Move& r, int len, Lines& lines, int& found) {
        int local_solutions = 0;
        PhaseSolver sub(ctx_, phase_, root_, local_solutions);
        sub.failures_ = failures_;
        sub.guide_ = guide_for(len);
        sub.stack_.push_back(m1);
        Position p = after;
        sub.help_move(p, r, len - 1, after.side_to_move());
        lines.insert(lines.end(), sub.lines_.begin(), sub.lines_.end());
        found += sub.found_;
    }

    // The play of length `len` (intro moves with an intro) from pos.
    bool start(Position& pos, int len) {
        if (phase_.intro_moves > 0) return intro(pos, len);
        if (phase_.series) return series(pos, len);
        if (phase_.tail != Tail::None) return help_end(pos, len);
        return help(pos, len);
    }

    // The play of length `len` after root move m, as start() would play it.
    bool root_move(Position& pos, const Move& m, int len) {
        const Color mover = pos.side_to_move();
        if (phase_.intro_moves > 0) return intro_move(pos, m, len);
        if (phase_.series) return series_move(pos, m, len, mover);
        if (phase_.tail != Tail::None) {
            ctx_.visit();
            if (end_blocks(pos)) return false;
            return help_end_move(pos, m, len);
        }
        return help_move(pos, m, len, mover);
    }

    // Intro: `remaining` more series moves of the intro side, then the main play.
    // A position met again with as many intro moves left fails again (intro_failures).
    bool intro(Position& pos, int remaining) {
        ctx_.visit();
        const bool memo = remaining < kMaxDepth;
        if (memo && failures_->intro_by_depth[remaining].contains(key_of(pos))) return false;
        MoveList list;
        popeye_ordered_moves(pos, list);
        bool found = false;
        for (const Move& m : list) {
            if (stop_) break;
            if (intro_move(pos, m, remaining)) found = true;
        }
        if (!found && !stop_ && memo && failures_->intro_by_depth[remaining].size() < kMaxFailuresPerDepth)
            failures_->intro_by_depth[remaining].insert(key_of(pos));
        return found;
    }

    // Intro after move m of the intro side (played and taken back here).
    bool intro_move(Position& pos, const Move& m, int remaining) {
        bool found = false;
        UndoInfo u;
        pos.do_move(m, u);
        stack_.push_back(m);
        if (remaining == 1) {
            found = main_after_intro(pos);
        } else if (!pos.in_check()) {
            // The main side passes: it may not be left in check.
            Position next = pos;
            next.set_side_to_move_for_analysis(phase_.intro_side);
            stack_.push_back(Move{});
            found = intro(next, remaining - 1);
            stack_.pop_back();
        }
        stack_.pop_back();
        pos.undo_move(m, u);
        return found;
    }

    // The main play after the intro moves on the stack, every length from the shortest.
    bool main_after_intro(Position& pos) {
        const int saved = intro_end_;
        intro_end_ = static_cast<int>(stack_.size());
        bool found = false;
        const int step = phase_.series ? 1 : 2;
        for (int len = phase_.min_length; len <= phase_.length && !stop_; len += step) {
            Position p = pos;
            if (phase_.series ? series(p, len) : help(p, len)) found = true;
        }
        intro_end_ = saved;
        return found;
    }

    // Help-self / help-reflex play: `remaining` help half-moves, then the end: the side to
    // move must reach the goal (self: every move of it does; reflex: one does, and all such
    // moves are written).
    bool help_end(Position& pos, int remaining) {
        ctx_.visit();
        if (remaining == 0) return finish_end(pos);
        if (end_blocks(pos)) return false;
        if (remaining > 1 && failed(pos, remaining)) return false;
        MoveList list;
        popeye_ordered_moves(pos, list);
        bool found = false;
        for (const Move& m : list) {
            if (stop_) break;
            if (help_end_move(pos, m, remaining)) found = true;
        }
        if (!found && remaining > 1 && !stop_) remember_failure(pos, remaining);
        return found;
    }

    // help_end after help move m (played and taken back here).
    bool help_end_move(Position& pos, const Move& m, int remaining) {
        UndoInfo u;
        pos.do_move(m, u);
        stack_.push_back(m);
        const bool found = help_end(pos, remaining - 1);
        stack_.pop_back();
        pos.undo_move(m, u);
        return found;
    }

    // Before a help move in help-self/help-reflex play: the play may not go on. Self: the
    // goal side, forced to reach the goal, must do so now (a shorter play). Reflex: a side
    // able to reach the goal is obliged to, which ends (goal side) or spoils (other side)
    // the play.
    bool end_blocks(Position& pos) const {
        if (phase_.tail == Tail::Self)
            return pos.side_to_move() == phase_.goal_side && goal_forced_in_one(pos, ctx_.goal);
        return goal_reachable_in_one(pos, ctx_.goal);
    }

    // The end of help-self/help-reflex play: writes the goal moves of the side to move when
    // it is forced (self) or able (reflex) to reach the goal.
    bool finish_end(Position& pos) {
        if (phase_.tail == Tail::Self && !goal_forced_in_one(pos, ctx_.goal)) return false;
        return write_goal_moves(pos, false);
    }

    // Writes a line for every move of the side to move that reaches the goal, in Popeye's
    // order (`final`: the order of its mating-move generator); returns whether there was one.
    // Only the goal moves are sorted, which gives them their order in the full list.
    bool write_goal_moves(Position& pos, bool final) {
        MoveList list, hits;
        generate_legal(pos, list);
        const bool checks_only = only_checks_reach(pos, ctx_.goal);
        for (const Move& m : list) {
            if (checks_only && !gives_check(pos, m)) continue;
            UndoInfo u;
            pos.do_move(m, u);
            if (goal_reached(pos, u, ctx_.goal)) hits.push(m);
            pos.undo_move(m, u);
        }
        if (hits.empty()) return false;
        popeye_sort(pos, hits, final && final_move_order(pos, ctx_.goal));
        for (const Move& m : hits) {
            if (stop_) break;
            stack_.push_back(m);
            emit();
            stack_.pop_back();
        }
        return true;
    }

    bool limit_reached() const {
        const auto& max = ctx_.problem.options.max_solutions;
        return max && solutions_ >= *max;
    }

    // Whether the goal may still be reached when the goal side makes `goal_side_moves` more
    // moves and its opponent `other_moves` (goal_bound.h; always true where it is unsound).
    bool reachable(const Position& pos, int goal_side_moves, int other_moves) const {
        return !bounded_ || goal_may_be_reached(pos, ctx_.goal, ~phase_.goal_side, goal_side_moves, other_moves);
    }

    // Help play: `remaining` half-moves, the last one reaching the goal.
    bool help(Position& pos, int remaining) {
        ctx_.visit();
        if (guide_ && !on_guide(pos, remaining)) return false;
        if (remaining == 1) return reachable(pos, 1, 0) && help_last(pos);
        const bool goal_side = pos.side_to_move() == phase_.goal_side;
        if (!reachable(pos, goal_side ? (remaining + 1) / 2 : remaining / 2,
                       goal_side ? remaining / 2 : (remaining + 1) / 2))
            return false;
        if (failed(pos, remaining)) return false;
        MoveList list;
        popeye_ordered_moves(pos, list);
        const Color mover = pos.side_to_move();
        bool found = false;
        for (const Move& m : list) {
            if (stop_) break;
            if (help_move(pos, m, remaining, mover)) found = true;
        }
        if (!found && !stop_) remember_failure(pos, remaining);
        return found;
    }

    // The last half-move of help play (and of series play without a tail): the goal side's
    // moves reaching the goal.
    bool help_last(Position& pos) { return pos.side_to_move() == phase_.goal_side && write_goal_moves(pos, true); }

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
        if (guide_ && !on_guide(pos, remaining)) return false;
        if (remaining == 1 && phase_.tail == Tail::None) return reachable(pos, 1, 0) && help_last(pos);
        // ser-#/ser-=: the goal side makes every move; ser-h: the opponent's moves, then one.
        if (phase_.tail == Tail::None && !reachable(pos, remaining, 0)) return false;
        if (phase_.tail == Tail::Help && !reachable(pos, 1, remaining)) return false;
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
        } else if (!pos.in_check() && !(phase_.tail == Tail::None && goal_reached(pos, u, ctx_.goal)) &&
                   !(phase_.tail == Tail::Self && goal_forced_in_one(pos, ctx_.goal))) {
            // ser-s#: where the opponent is already forced to reach the goal the series ends
            // (Popeye's TESTS/series_play.inp "stop solving when the goal is reached").
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
        if (phase_.tail == Tail::Self && !goal_forced_in_one(pos, ctx_.goal)) return false;
        return write_goal_moves(pos, phase_.tail == Tail::Help);
    }

    // pos.exact_key() in a buffer of this thread (valid until the next call).
    // The target-position guide of plain help play of `len` half-moves ending in mate
    // (help_pictures.h), where it applies: Option Intelligent, orthodox play, at least 3
    // moves of each side. Null otherwise, or when the pictures are too many.
    std::shared_ptr<const HelpGuide> make_guide(int len) const {
        const bool help = !phase_.series && phase_.tail == Tail::None && len >= 5;
        const bool series_help = phase_.series && phase_.tail == Tail::Help && len >= 3;
        if (!ctx_.problem.options.intelligent || phase_.intro_moves > 0 || !(help || series_help) ||
            (ctx_.goal != Goal::Mate && ctx_.goal != Goal::Stalemate) || !bounded_)
            return nullptr;
        auto guide = std::make_shared<HelpGuide>();
        const std::function<void()> visit = [this] { ctx_.visit(); };
        // Series play: the pictures of the longest length serve every length (made once, on
        // first use). Not in help play, where a shorter length's own pictures are fewer (its
        // smaller budgets refuse more parries) by more than making them costs.
        int first = 0, step = 1, last = 0;
        lengths(first, step, last);
        const int longest = phase_.series ? std::max(len, last) : len;
        if (!build_help_guide(root_, len, longest, phase_.series, phase_.goal_side, ctx_.goal, *guide, *picture_cache_,
                              visit, max_pictures()))
            return nullptr;
        return guide;
    }

    // The most pictures worth searching: beyond them the plain search is faster. Measured on
    // Popeye's intelligent-mode examples: mates with up to 40000 pictures gain (BEISPIEL
    // intell_095 1.09 s -> 0.39 s, intell_040 2.4 s -> 0.9 s), more lose (castling_045: 74000
    // pictures, 11 s against 3.5 s); stalemate pictures lose from 20000 on (hpint_055,
    // hpint_098, hpint_108).
    std::size_t max_pictures() const { return ctx_.goal == Goal::Mate ? 40000 : 20000; }

    // The guides of every length of run(), made once for the split entry points (root_parts,
    // reply_parts), which may run in parallel on one solver.
    void prepare_guides() {
        std::call_once(guides_once_, [this] {
            int first = 0, step = 1, last = 0;
            lengths(first, step, last);
            std::vector<std::shared_ptr<const HelpGuide>> guides(std::max(last + 1, 0));
            for (int len = std::max(first, 0); len <= last; len += step) guides[len] = make_guide(len);
            guides_by_length_ = std::move(guides);
        });
    }

    // The guide of a play of `len` half-moves: prepare_guides()' when made, else run()'s.
    std::shared_ptr<const HelpGuide> guide_for(int len) const {
        if (len >= 0 && len < int(guides_by_length_.size())) return guides_by_length_[len];
        return guide_;
    }

    bool on_guide(const Position& pos, int remaining) const {
        thread_local std::string buffer;
        guide_key(pos, remaining, buffer);
        return guide_->good.contains(buffer);
    }

    static const std::string& key_of(const Position& pos) {
        thread_local std::string buffer;
        pos.exact_key(buffer);
        return buffer;
    }

    bool failed(const Position& pos, int remaining) const {
        return remaining < kMaxDepth && failures_->by_depth[remaining].contains(key_of(pos));
    }
    void remember_failure(const Position& pos, int remaining) {
        // Bounded: past the cap a failure is searched again when met again, never remembered
        // at the cost of memory (about 2 GiB in all).
        if (remaining < kMaxDepth && failures_->by_depth[remaining].size() < kMaxFailuresPerDepth)
            failures_->by_depth[remaining].insert(key_of(pos));
    }

    // Keeps the line on the stack (null moves are the opponent's passes in series play).
    void emit() {
        lines_.push_back({stack_, phase_.intro_moves > 0 ? intro_end_ : -1});
        ++found_;
        ++solutions_;
        if (limit_reached()) stop_ = true;
    }

  public:
    // Popeye's text of `lines` (format_play_line, one after the other).
    std::string text(const Lines& lines) const {
        std::string out;
        for (const FoundLine& l : lines) {
            PlayLineStyle style;
            style.numbered = phase_.intro_moves > 0 ? phase_.intro_side : phase_.numbered;
            style.dots = phase_.intro && phase_.intro_moves == 0;
            style.skipped = phase_.skipped;
            style.restart = l.restart;
            style.restart_numbered = phase_.numbered;
            out += format_play_line(root_, l.moves, style, ctx_.problem.language, ctx_.goal);
        }
        return out;
    }

  private:
    const SolveContext& ctx_;
    Phase phase_;
    const Position& root_;
    int& solutions_;
    const bool bounded_;  // goal_bound.h applies to the phase's goal and rules
    int found_ = 0;
    bool stop_ = false;
    std::vector<Move> stack_;
    int intro_end_ = -1;  // stack index of the main play's first move (intro play)
    // Positions (exact keys) known to have no solution, by moves remaining; shared by the
    // threads of one phase, at most kMaxFailuresPerDepth per depth.
    static constexpr int kMaxDepth = 64;
    static constexpr size_t kMaxFailuresPerDepth = size_t(1) << 21;
    std::shared_ptr<const HelpGuide> guide_;  // the positions help play follows (null: all)
    std::once_flag guides_once_;
    std::vector<std::shared_ptr<const HelpGuide>> guides_by_length_;
    // The intelligent mode's pictures, made once for the longest length (help_pictures.h).
    std::shared_ptr<HelpPictureCache> picture_cache_ = std::make_shared<HelpPictureCache>();

    struct Failures {
        std::array<ExactSet, kMaxDepth> by_depth;
        // Intro play (n->): positions after which no intro of that many more moves leads
        // to a solution of the main play.
        std::array<ExactSet, kMaxDepth> intro_by_depth;
    };
    std::shared_ptr<Failures> failures_;
    Lines lines_;
};

// The phase description of a stipulation played with `first` moving first (with intro
// moves: `first` plays them, then the main play of half_moves - intro half-moves starts).
Phase make_phase(const Stipulation& st, Color first, int half_moves) {
    if (st.intro > 0) {
        Stipulation main = st;
        main.intro = 0;
        Phase ph = make_phase(main, ~first, half_moves - st.intro);
        ph.intro_moves = st.intro;
        ph.intro_side = first;
        return ph;
    }
    Phase ph;
    ph.series = st.series;
    if (st.series) {
        ph.tail = st.play == Stipulation::Play::Help   ? Tail::Help
                  : st.play == Stipulation::Play::Self ? Tail::Self
                                                       : Tail::None;
        ph.length = ph.tail == Tail::None ? half_moves : half_moves - 1;
        ph.min_length = st.exact ? ph.length : 1;
        ph.numbered = first;
        ph.goal_side = ph.tail == Tail::None ? first : ~first;
        ph.intro = false;
    } else if (st.play == Stipulation::Play::HelpSelf || st.play == Stipulation::Play::HelpReflex) {
        // hs/hr: half_moves - 1 help moves, then the end (the goal side's forced or
        // obligatory goal move); numbered like help play of half_moves.
        ph.tail = st.play == Stipulation::Play::HelpSelf ? Tail::Self : Tail::Reflex;
        ph.length = half_moves - 1;
        ph.min_length = st.exact ? half_moves - 1 : (half_moves % 2 ? 0 : 1);
        ph.goal_side = half_moves % 2 ? first : ~first;
        ph.numbered = ~ph.goal_side;
        ph.intro = first != ph.numbered;
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

namespace {

// One play of a help/series twin: its phase, its diagram with the phase's first mover to
// move, and whether that mover's opponent is in check there (no play).
struct HelpRun {
    Phase phase;
    Position root;
    bool blocked = false;
    bool set_play = false;
    bool duplex_start = false;  // the first run of the play with the colours exchanged (Duplex)
};

// The plays solve_help_or_series writes, in order; false when it does not handle the
// stipulation.
bool help_runs(const SolveContext& ctx, std::vector<HelpRun>& out) {
    const Stipulation& st = ctx.problem.stipulation;
    const Options& opt = ctx.problem.options;
    using P = Stipulation::Play;
    if (ctx.goal == Goal::Unsupported) return false;
    if (st.series) {
        if (st.play != P::Direct && st.play != P::Help && st.play != P::Self) return false;
    } else if (st.intro > 0 || (st.play != P::Help && st.play != P::HelpSelf && st.play != P::HelpReflex)) {
        return false;  // intro moves only before series play
    }
    // With intro moves the side making them is the opponent of the main play's first mover
    // (ser-h: Black, so White makes the intro moves; ser-# and ser-s: Black makes them).
    const Color first = st.intro > 0 ? (st.play == P::Help ? WHITE : BLACK) : ctx.initial.side_to_move();

    struct Run {
        Color first;
        int half_moves;
        bool set_play;
        Color play_first;  // the first mover of the play (of which this is the set play)
        bool duplex_start = false;
    };
    // Each play (the stipulation's, and with Duplex or HalfDuplex the one with the colours
    // exchanged) after its own set play, as Popeye writes them.
    std::vector<Color> starters;
    if (!opt.half_duplex) starters.push_back(first);
    if (opt.duplex || opt.half_duplex) starters.push_back(~first);
    std::vector<Run> runs;
    for (Color c : starters) {
        const size_t start = runs.size();
        if (opt.set_play && !st.series && st.intro == 0 && st.half_moves > 1)
            runs.push_back({~c, st.half_moves - 1, true, c});
        runs.push_back({c, st.half_moves, false, c});
        runs[start].duplex_start = start > 0;
    }

    for (const Run& r : runs) {
        Phase ph = make_phase(st, r.first, r.half_moves);
        if (r.set_play) {
            // Set play keeps the numbering of the actual play: the first move is "1...".
            const Color first = r.play_first;
            const Phase actual = make_phase(st, first, st.half_moves);
            ph.numbered = actual.numbered;
            ph.goal_side = actual.goal_side;
            ph.intro = r.first != ph.numbered;
            // The actual play starts with the side not numbered (h#2.5: "1...W 2.B W ..."): its
            // set play leaves that move out, "1...  ...  2.B W ..." in Popeye.
            ph.skipped = first != actual.numbered && r.first == actual.numbered;
        }
        Position root = ctx.initial;
        if (root.side_to_move() != r.first) root.set_side_to_move_for_analysis(r.first);
        const bool blocked = root.in_check(~r.first);
        out.push_back({ph, std::move(root), blocked, r.set_play, r.duplex_start});
    }
    return true;
}

}  // namespace

// A goal move whose text (no marks) is `move` as a line "  1.X #" ("  1...X #" when `dots`: a
// move of the side not numbered) followed by `suffix`, preceded by a line break.
std::string goal_move_line(const SolveContext& ctx, const std::string& move, bool dots, const char* suffix) {
    return std::string("\n  1") + (dots ? "..." : ".") + move + std::string(goal_mark(ctx.goal)) + suffix;
}

// The goal moves of the side to move in `pos`, each a goal_move_line.
std::string goal_move_lines(const SolveContext& ctx, Position& pos, bool dots, const char* suffix) {
    std::string text;
    for (const GoalMove& g : goal_moves(pos, ctx.goal, ctx.problem.language))
        text += goal_move_line(ctx, g.text, dots, suffix);
    return text;
}

namespace {

// Help-reflex play whose first mover can reach the goal: it must, and the play fails; Popeye
// writes those moves marked " ?!?" (TESTS/help_play.inp, hr#1), for each play of a Duplex
// alike, and after the set play's block with SetPlay. The position of run `run` then, or null.
std::optional<Position> help_reflex_obliged(const SolveContext& ctx, const HelpRun& run) {
    const Stipulation& st = ctx.problem.stipulation;
    if (st.series || st.play != Stipulation::Play::HelpReflex || run.blocked || run.set_play) return std::nullopt;
    Position root = run.root;
    if (root.side_to_move() != run.phase.goal_side && goal_reachable_in_one(root, ctx.goal)) return root;
    return std::nullopt;
}

// Set play of ser-s# and ser-h#: the opponent of the series side reaches the goal at once
// (ser-s#: forced to; ser-h#: able to, BEISPIEL/hpint.inp "1...Kd1-e2 ="). The position with
// that opponent to move when the option asks for it, else null; Popeye writes the set play's
// block (an empty line) also when the opponent does not reach the goal (series_set_reaches).
std::optional<Position> series_set_position(const SolveContext& ctx) {
    const Stipulation& st = ctx.problem.stipulation;
    if (!(st.series && st.intro == 0 && ctx.problem.options.set_play &&
          (st.play == Stipulation::Play::Self || st.play == Stipulation::Play::Help)))
        return std::nullopt;
    Position set = ctx.initial;
    set.set_side_to_move_for_analysis(~ctx.initial.side_to_move());
    if (set.in_check(ctx.initial.side_to_move())) return std::nullopt;
    return set;
}

// Whether the opponent reaches the goal in the set play's position `set` (its goal moves are
// then the set play's lines).
bool series_set_reaches(const SolveContext& ctx, Position& set) {
    return ctx.problem.stipulation.play == Stipulation::Play::Self ? goal_forced_in_one(set, ctx.goal)
                                                                   : goal_reachable_in_one(set, ctx.goal);
}

}  // namespace

bool solve_help_or_series(const SolveContext& ctx) {
    std::vector<HelpRun> runs;
    if (!help_runs(ctx, runs)) return false;
    TwinOutput scratch;
    TwinOutput& out = ctx.output ? *ctx.output : scratch;
    if (std::optional<Position> set = series_set_position(ctx); set && series_set_reaches(ctx, *set))
        for (const GoalMove& g : goal_moves(*set, ctx.goal, ctx.problem.language))
            out.lines.push_back({0, 0, set->side_to_move(), {g.move}, true});
    for (const HelpRun& r : runs) {
        // A blocked play is not played; an obliged one's goal moves follow from the position.
        if (r.blocked || help_reflex_obliged(ctx, r)) continue;
        int solutions = 0;
        PhaseSolver solver(ctx, r.phase, r.root, solutions);
        bool interrupted = false;
        const Lines& lines = solver.run(interrupted);
        for (const FoundLine& l : lines)
            out.lines.push_back(
                {0, static_cast<int>(&r - runs.data()), r.root.side_to_move(), l.moves, r.set_play, l.restart});
        if (interrupted && ctx.partial) *ctx.partial = true;
        out.last_cut = interrupted;
    }
    return true;
}

bool render_help_or_series(const SolveContext& ctx, const TwinOutput& found, std::string& out) {
    std::vector<HelpRun> runs;
    if (!help_runs(ctx, runs)) return false;
    if (!found.trees.empty()) throw std::invalid_argument("trees in help or series play");
    std::string text;
    size_t next = 0;  // the first line not written yet
    // The series' set play: goal moves of the other side, one move each.
    const std::optional<Position> set = series_set_position(ctx);
    if (set) {
        while (next < found.lines.size() && found.lines[next].set_play) {
            const PlayLine& l = found.lines[next++];
            if (l.play != 0 || l.first != set->side_to_move() || l.moves.size() != 1)
                throw std::invalid_argument("a set-play line of another play");
            Position pos = *set;
            if (ctx.check && !is_legal(pos, l.moves[0]))
                throw std::invalid_argument("a move that is not legal where it is played");
            text += goal_move_line(ctx, move_to_popeye(pos, l.moves[0], false, ctx.problem.language), true, "");
        }
        text += "\n";
    }
    for (size_t r = 0; r < runs.size(); ++r) {
        // A play whose first mover could take the king (a Duplex half) is not played; Popeye
        // says so on stderr only.
        if (runs[r].blocked) continue;
        // The second play of a Duplex: Popeye builds its solving machinery again and writes
        // the solving notes again (the first play's follow the header).
        if (runs[r].duplex_start) text += format_solving_notes(ctx.problem);
        if (std::optional<Position> root = help_reflex_obliged(ctx, runs[r])) {
            if (next < found.lines.size() && found.lines[next].play == int(r))
                throw std::invalid_argument("lines where the first mover must reach the goal");
            text += goal_move_lines(ctx, *root, false, " ?!?") + "\n";
            continue;
        }
        std::vector<PlayLine> lines;
        while (next < found.lines.size() && found.lines[next].play == int(r) && !(set && found.lines[next].set_play))
            lines.push_back(found.lines[next++]);
        text += help_lines_text(ctx, int(r), lines);
        if (!found.last_cut || r + 1 != runs.size()) text += "\n";
    }
    if (next != found.lines.size()) throw std::invalid_argument("lines of a play the twin does not have");
    out += text;
    return true;
}

bool split_help(const SolveContext& ctx, std::vector<SplitPhase>& phases) {
    const Options& opt = ctx.problem.options;
    if (opt.max_solutions || opt.stop_on_short_solutions || ctx.problem.stipulation.intro > 0) return false;
    std::vector<HelpRun> runs;
    if (!help_runs(ctx, runs)) return false;
    // A Duplex whose solving notes come again before its second play is not split (the
    // assembly writes no notes between plays).
    if (opt.duplex && !format_solving_notes(ctx.problem).empty()) return false;
    // Nor is series play with set play (its block is no root move's).
    if (series_set_position(ctx)) return false;
    std::vector<SplitPhase> result;
    for (const HelpRun& r : runs) {
        if (help_reflex_obliged(ctx, r)) return false;  // its goal moves are no root moves' lines
        SplitPhase sp;
        sp.blocked = r.blocked;
        if (!r.blocked) {
            int solutions = 0;
            PhaseSolver solver(ctx, r.phase, r.root, solutions);
            // A play of length 0 (hs/hr ending at once) is searched without root moves.
            if (solver.length_count() > 0 && solver.first_length() < 1) return false;
            sp.lengths = solver.length_count();
            MoveList list;
            popeye_ordered_moves(r.root, list);
            sp.moves.assign(list.begin(), list.end());
        }
        result.push_back(std::move(sp));
    }
    phases = std::move(result);
    return true;
}

namespace {

// Root move `root` of play `phase` of split_help, with the play's run.
const HelpRun& help_root(const SolveContext& ctx, int phase, int root, std::vector<HelpRun>& runs, Move& move) {
    if (!help_runs(ctx, runs) || phase < 0 || phase >= int(runs.size()) || runs[phase].blocked)
        throw std::logic_error("no such help play to split");
    const HelpRun& r = runs[phase];
    MoveList list;
    popeye_ordered_moves(r.root, list);
    if (root < 0 || root >= list.size()) throw std::logic_error("no such root move");
    move = list[root];
    return r;
}

}  // namespace

namespace {

// The lines of `parts` (per length) as data: twin 0, play `phase` of run `r`.
LineParts as_play_lines(std::vector<Lines> parts, int phase, const HelpRun& r) {
    LineParts out(parts.size());
    for (size_t len = 0; len < parts.size(); ++len)
        for (FoundLine& l : parts[len])
            out[len].push_back({0, phase, r.root.side_to_move(), std::move(l.moves), r.set_play, l.restart});
    return out;
}

}  // namespace

LineParts help_root_lines(const SolveContext& ctx, int phase, int root) {
    std::vector<HelpRun> runs;
    Move m;
    const HelpRun& r = help_root(ctx, phase, root, runs, m);
    int solutions = 0;
    PhaseSolver solver(ctx, r.phase, r.root, solutions);
    int found = 0;
    return as_play_lines(solver.root_parts(m, found), phase, r);
}

std::vector<Move> help_reply_moves(const SolveContext& ctx, int phase, int root) {
    std::vector<HelpRun> runs;
    Move m;
    const HelpRun& r = help_root(ctx, phase, root, runs, m);
    int solutions = 0;
    return PhaseSolver(ctx, r.phase, r.root, solutions).reply_moves(m);
}

std::vector<std::optional<LineParts>> help_replies_lines(const SolveContext& ctx, int phase, int root,
                                                         std::chrono::steady_clock::time_point deadline) {
    std::vector<HelpRun> runs;
    Move m;
    const HelpRun& r = help_root(ctx, phase, root, runs, m);
    int solutions = 0;
    PhaseSolver solver(ctx, r.phase, r.root, solutions);
    const std::vector<Move> replies = solver.reply_moves(m);
    std::vector<std::optional<std::vector<Lines>>> found;
    run_in_arena(ctx.threads, [&] { found = solver.replies_parts(m, replies, deadline); });
    std::vector<std::optional<LineParts>> out(found.size());
    for (size_t j = 0; j < found.size(); ++j)
        if (found[j]) out[j] = as_play_lines(std::move(*found[j]), phase, r);
    return out;
}

LineParts help_reply_lines(const SolveContext& ctx, int phase, int root, int reply) {
    std::vector<HelpRun> runs;
    Move m;
    const HelpRun& r = help_root(ctx, phase, root, runs, m);
    int solutions = 0;
    PhaseSolver solver(ctx, r.phase, r.root, solutions);
    const std::vector<Move> replies = solver.reply_moves(m);
    if (reply < 0 || reply >= int(replies.size())) throw std::logic_error("no such reply");
    int found = 0;
    return as_play_lines(solver.reply_parts(m, replies[size_t(reply)], reply == 0, found), phase, r);
}

std::string help_lines_text(const SolveContext& ctx, int phase, const std::vector<PlayLine>& lines) {
    std::vector<HelpRun> runs;
    if (!help_runs(ctx, runs) || phase < 0 || phase >= int(runs.size()) || runs[phase].blocked)
        throw std::invalid_argument("lines of a help play the problem does not have");
    const HelpRun& r = runs[size_t(phase)];
    Lines found;
    for (const PlayLine& l : lines) {
        if (l.play != phase || l.first != r.root.side_to_move() || l.set_play != r.set_play || l.moves.empty())
            throw std::invalid_argument("a line of another play");
        if (ctx.check) check_line(r.root, l.moves);
        if (l.restart < -1 || l.restart >= int(l.moves.size()))
            throw std::invalid_argument("a line restarting nowhere");
        found.push_back({l.moves, l.restart});
    }
    int solutions = 0;
    return PhaseSolver(ctx, r.phase, r.root, solutions).text(found);
}

}  // namespace rebirth
