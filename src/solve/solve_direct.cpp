// Battle play: direct (#n, =n, ==n, xn, +n, ~n), self (s#n, s=n) and reflex (r#n) stipulations,
// also exact- and with Duplex/HalfDuplex, written the way Popeye's tree output writes them
// (key, threat, variations, tries, set play).

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/exact_set.h"
#include "core/parallel.h"
#include "rebirth/movegen.h"
#include "rebirth/notation.h"
#include "rebirth/popeye_order.h"
#include "solve/solve_internal.h"

namespace rebirth {

namespace {

enum class Mode { Direct, Self, Reflex };

// The goal moves of the side to move in `pos` as tree nodes of kind `kind`, marked as
// reaching the goal (a defender's obliged goal moves, or a reflex attacker's).
std::vector<PlayNode> goal_move_nodes(const SolveContext& ctx, Position& pos, PlayNode::Kind kind) {
    std::vector<PlayNode> nodes;
    for (const GoalMove& g : goal_moves(pos, ctx.goal, ctx.problem.language)) {
        PlayNode node{kind, g.move, {}};
        node.goal = true;
        nodes.push_back(std::move(node));
    }
    return nodes;
}

// Whether a root tree of kind `kind` counts towards MaxSolutions: keys and tries, which Popeye
// counts alike in direct and self play (measured on 48 random #2 and s#2 with tries); in
// reflex play keys only (its count there was not understood).
bool counts_as_solution(Mode mode, PlayNode::Kind kind) {
    return kind == PlayNode::Kind::Key || (mode != Mode::Reflex && kind == PlayNode::Kind::Try);
}

// Solves the battle play of one problem on one thread's own Position copies, as trees of the
// moves Popeye shows (solution.h), which format_battle_block (popeye_output.h) writes.
class BattleSolver {
  public:
    // `exact`: exact- play, where the goal counts only on the attacker's last move (or, in
    // self and reflex play, on the defender's move after it).
    BattleSolver(const SolveContext& ctx, Mode mode, bool exact) : ctx_(ctx), mode_(mode), exact_(exact) {}

    // The defender's play is over in the attacker's favour right now, j attacker moves
    // before the end: self play forces the defender to reach the goal; reflex play obliges
    // it to when it can. In exact- play only at the end (j == 0).
    bool defender_finished(Position& pos, int j) const {
        if (exact_ && j > 0) return false;
        if (mode_ == Mode::Self) return goal_forced_in_one(pos, ctx_.goal);
        if (mode_ == Mode::Reflex) return goal_reachable_in_one(pos, ctx_.goal);
        return false;
    }

    // Exact- reflex play: the defender, obliged to reach the goal before the end, ends the
    // play too early; the attacker has failed.
    bool defender_ends_early(Position& pos, int j) const {
        return exact_ && j > 0 && mode_ == Mode::Reflex && goal_reachable_in_one(pos, ctx_.goal);
    }

    // Whether the attacker's move just played (undo record u), with j moves of its play
    // left including it, solves by reaching the goal (direct play; exact-: only the last).
    // Quodlibet makes self play also direct: the attacker may reach the goal itself.
    bool goal_move(const Position& after, const UndoInfo& u, int j) const {
        const bool direct = mode_ == Mode::Direct || (mode_ == Mode::Self && ctx_.problem.options.quodlibet);
        return direct && (!exact_ || j == 1) && goal_reached(after, u, ctx_.goal);
    }

    // Self play: a defence that itself reaches the goal (Black mates before the end) is a win
    // for the attacker; Popeye neither counts it as a refutation nor writes it as a variation
    // (BEISPIEL/anticir.inp, the Anti-Circe Cheylan s#2 whose key 1.f7-f8=S allows 1...Tc2-c1 #).
    bool defence_reaches_goal(const Position& after, const UndoInfo& u) const {
        return mode_ == Mode::Self && !exact_ && goal_reached(after, u, ctx_.goal);
    }

    // Defender to move, j attacker moves left: whether every defence loses.
    bool defender_loses(Position& pos, int j) const {
        // No attacker move left: direct play has failed, and self play asks whether every
        // move of the defender reaches the goal, which its first other move answers sooner
        // than a table lookup (reflex play, which looks for a goal move, keeps the table).
        if (j == 0 && mode_ == Mode::Direct) return false;
        if (j == 0 && mode_ == Mode::Self) return defender_loses_uncached(pos, j);
        return cached(pos, j, 0, [&] { return defender_loses_uncached(pos, j); });
    }

    // Moves the last refutation (defender) or win (attacker) found with j attacker moves left
    // to the front of list: a killer, likely to cut its siblings too. Only the order in which
    // moves are tried changes, never a result.
    static void killer_first(MoveList& list, const Move& killer) {
        if (killer.is_null()) return;
        for (Move* m = list.begin(); m != list.end(); ++m)
            if (*m == killer) {
                std::rotate(list.begin(), m, m + 1);
                return;
            }
    }

    // Orders the defences in list (defender to move in pos) by the number of the attacker's
    // legal replies, fewest first: such a defence is the likeliest refutation, and the one
    // whose refutation costs least to confirm (the attacker's tree below it is smallest).
    // Only the order in which defences are tried changes, never a result.
    static void fewest_replies_first(Position& pos, MoveList& list) {
        const int n = list.size();
        std::array<std::pair<int, Move>, MAX_MOVES> in_place;
        std::vector<std::pair<int, Move>> on_heap(n > MAX_MOVES ? size_t(n) : 0);
        std::pair<int, Move>* order = n > MAX_MOVES ? on_heap.data() : in_place.data();
        for (int i = 0; i < n; ++i) {
            UndoInfo u;
            pos.do_move(list[i], u);
            order[i] = {count_legal(pos), list[i]};
            pos.undo_move(list[i], u);
        }
        std::stable_sort(order, order + n, [](const auto& a, const auto& b) { return a.first < b.first; });
        for (int i = 0; i < n; ++i) list[i] = order[i].second;
    }

    static Move& killer(int side, int j) {
        thread_local std::array<std::array<Move, 64>, 2> killers{};
        return killers[side][std::min(j, 63)];
    }

    // The transposition table: the result of `compute` for (pos, j, kind), computed once
    // per thread.
    template <typename Compute>
    bool cached(const Position& pos, int j, int kind, Compute&& compute) const {
        // The position's exact key, then the moves left and the kind (one byte each), in this
        // thread's buffer for the nesting depth (nested questions keep theirs).
        thread_local std::vector<std::string> buffers;
        thread_local std::size_t depth = 0;
        if (buffers.size() <= depth) buffers.resize(depth + 1);
        std::string& key = buffers[depth];
        pos.exact_key(key);
        key += static_cast<char>(j);
        key += static_cast<char>(kind);
        ExactSet& cache = cache_.local();
        if (const int known = cache.find(key); known >= 0) return known != 0;
        ++depth;
        bool result;
        try {
            result = compute();
        } catch (...) {
            --depth;
            throw;
        }
        --depth;
        std::string& again = buffers[depth];  // compute() may have grown the vector
        // A bounded table: a long search starts it afresh instead of exhausting memory
        // (BEISPIEL/castling.inp's #6 filled 24 GiB). It only saves work; results are exact.
        if (cache.size() >= kMaxCacheEntries) cache.clear();
        cache.insert(again, result ? 1 : 0);
        return result;
    }

    // defender_loses without the transposition table.
    bool defender_loses_uncached(Position& pos, int j) const {
        ctx_.visit();
        if (defender_finished(pos, j)) return true;
        if (j == 0 || defender_ends_early(pos, j) || defended_by_options(pos, j)) return false;
        MoveList list;
        generate_legal(pos, list);  // whether a defence holds, not which: likely refutations first
        if (list.empty()) return false;
        if (j >= 2)
            fewest_replies_first(pos, list);
        else
            killer_first(list, killer(0, j));
        for (const Move& d : list) {
            UndoInfo u;
            pos.do_move(d, u);
            const bool lost = defence_reaches_goal(pos, u) || attacker_wins(pos, j);
            pos.undo_move(d, u);
            if (!lost) {
                killer(0, j) = d;
                return false;
            }
        }
        return true;
    }

    // Whether move m of the attacker (played in pos, undo record u) solves in j moves.
    bool attack_solves(Position& pos, const UndoInfo& u, int j) const {
        if (goal_move(pos, u, j)) return true;
        return defender_loses(pos, j - 1);
    }

    // Attacker to move: whether it forces the stipulation within j >= 1 moves.
    bool attacker_wins(Position& pos, int j) const {
        return cached(pos, j, 1, [&] { return attacker_wins_uncached(pos, j); });
    }

    // attacker_wins without the transposition table.
    bool attacker_wins_uncached(Position& pos, int j) const {
        ctx_.visit();
        if (mode_ == Mode::Reflex && goal_reachable_in_one(pos, ctx_.goal)) return false;
        // Only whether a move wins counts here, not which: no ordering.
        MoveList list;
        generate_legal(pos, list);
        // Direct play's last move mates (checks) only if it gives check, which positions
        // without rules and fairy walks tell without playing it.
        const bool checks_only = mode_ == Mode::Direct && only_checks_reach(pos, ctx_.goal);
        // Options Threat and MaxFlightsquares judge a defence by the length being tried, and
        // Popeye tries the shortest lengths first: a play that wins within fewer moves meets
        // the options at its own length (BEISPIEL/circe.inp #4 with MaxFlightsquares 0).
        const Options& o = ctx_.problem.options;
        const int first = (o.threat || o.max_flights) && !exact_ ? 1 : j;
        killer_first(list, killer(1, j));
        for (int k = first; k <= j; ++k) {
            for (const Move& m : list) {
                if (k == 1 && checks_only && !gives_check(pos, m)) continue;
                UndoInfo u;
                pos.do_move(m, u);
                const bool solves = attack_solves(pos, u, k);
                pos.undo_move(m, u);
                if (solves) {
                    killer(1, j) = m;
                    return true;
                }
            }
        }
        return false;
    }

    // Shortest j in 1..k with which the attacker to move wins; 0 when none. In exact- play
    // only k itself counts.
    int attacker_min(Position& pos, int k) const {
        for (int j = exact_ ? k : 1; j <= k; ++j)
            if (attacker_wins(pos, j)) return j;
        return 0;
    }

    // Whether a defence (played, undo record u) carries the goal mark: in self and reflex play
    // one that reaches the goal ("1...b3-b2 # !" refuting an exact- s#2).
    bool defence_goal(const Position& after, const UndoInfo& u) const {
        return mode_ != Mode::Direct && goal_reached(after, u, ctx_.goal);
    }

    // Attacker to move: every move solving in exactly j (the shortest length), each a child
    // of `node` of kind `kind` with the play below it.
    void write_attacks(Position& pos, int j, PlayNode& node, PlayNode::Kind kind = PlayNode::Kind::Attack) const {
        if (mode_ == Mode::Reflex && goal_reachable_in_one(pos, ctx_.goal)) return;
        MoveList list;
        // Direct play's last move: Popeye's mating-move generator order (mate and check goals).
        if (j == 1 && mode_ == Mode::Direct && final_move_order(pos, ctx_.goal))
            popeye_ordered_final_moves(pos, list);
        else
            popeye_ordered_moves(pos, list);
        for (const Move& m : list) {
            UndoInfo u;
            pos.do_move(m, u);
            if (goal_move(pos, u, j)) {
                PlayNode child{kind, m, {}};
                child.goal = true;
                node.children.push_back(std::move(child));
            } else if (defender_loses(pos, j - 1)) {
                PlayNode& child = node.children.emplace_back(PlayNode{kind, m, {}});
                write_defences(pos, j - 1, false, child);
            }
            pos.undo_move(m, u);
        }
    }

    // Defender to move after the attacker's move `node`, j attacker moves left: what ends
    // that move's line (node.then) and the play below it: threats, the defences shown as
    // variations with their continuations, or the defender's goal moves when it must reach the
    // goal. `set_play`: no threat, unanswered defences are left out. `inline_refutations`
    // (Option PostKeyPlay): the refutations among the variations.
    void write_defences(Position& pos, int j, bool set_play, PlayNode& node, bool inline_refutations = false) const {
        if (defender_finished(pos, j)) {
            node.then = PlayNode::Then::Finished;
            write_goal_defences(pos, node);
            return;
        }
        if (j == 0) {
            node.then = PlayNode::Then::Line;
            if (mode_ != Mode::Self) return;
            if (!inline_refutations) {
                // The try of an s#1, and its set play: the defender's goal moves are its variations.
                write_goal_defences(pos, node);
                return;
            }
            // Option PostKeyPlay of an s#1: every defence in Popeye's order, those that do not
            // reach the goal written as refutations.
            MoveList list;
            popeye_ordered_moves(pos, list);
            for (const Move& d : list) {
                UndoInfo u;
                pos.do_move(d, u);
                const bool goal = goal_reached(pos, u, ctx_.goal);
                PlayNode defence{goal ? PlayNode::Kind::Defence : PlayNode::Kind::Refutation, d, {}};
                defence.goal = goal || defence_goal(pos, u);
                pos.undo_move(d, u);
                node.children.push_back(std::move(defence));
            }
            return;
        }
        // Threats: the attacker's shortest plays after a null move of the defender.
        int threat_len = 0;
        std::vector<Move> threats;
        node.then = PlayNode::Then::Line;
        if (!set_play && !ctx_.problem.options.no_threat && !pos.in_check()) {
            Position null = pos;
            null.set_side_to_move_for_analysis(~pos.side_to_move());
            threat_len = attacker_min(null, j);
            if (threat_len) {
                node.then = PlayNode::Then::Threat;
                write_attacks(null, threat_len, node, PlayNode::Kind::Threat);
                threats = solving_moves(null, threat_len);
            } else {
                node.then = PlayNode::Then::Zugzwang;
            }
        }
        MoveList list;
        popeye_ordered_moves(pos, list);
        for (const Move& d : list) {
            UndoInfo u;
            pos.do_move(d, u);
            if (defence_reaches_goal(pos, u)) {
                pos.undo_move(d, u);
                continue;
            }
            const int len = attacker_min(pos, j);
            if (len == 0) {
                // Option PostKeyPlay writes the refutations among the variations.
                if (inline_refutations) {
                    PlayNode refutation{PlayNode::Kind::Refutation, d, {}};
                    refutation.goal = defence_goal(pos, u);
                    node.children.push_back(std::move(refutation));
                }
            } else if (shows_variation(pos, len, j, threat_len, threats)) {
                PlayNode& defence = node.children.emplace_back(PlayNode{PlayNode::Kind::Defence, d, {}});
                defence.goal = defence_goal(pos, u);
                write_attacks(pos, len, defence);
            }
            pos.undo_move(d, u);
        }
    }

    // Defender to move and obliged to reach the goal: its goal moves, children of `node`.
    void write_goal_defences(Position& pos, PlayNode& node) const {
        for (PlayNode& d : goal_move_nodes(ctx_, pos, PlayNode::Kind::Defence)) node.children.push_back(std::move(d));
    }

    // Attacker to move: its moves that solve in j.
    std::vector<Move> solving_moves(Position& pos, int j) const {
        std::vector<Move> result;
        MoveList list;
        popeye_ordered_moves(pos, list);
        for (const Move& m : list) {
            UndoInfo u;
            pos.do_move(m, u);
            if (attack_solves(pos, u, j)) result.push_back(m);
            pos.undo_move(m, u);
        }
        return result;
    }

    // Popeye's variation filter after a defence (attacker to move in pos, shortest win len of
    // at most j): variations shorter than the threat are not written, longer ones are. One as
    // long as the threat is written only if it defeats a threat: Popeye tries the attacker's
    // moves in its order, and every move equal to a threat move (same_as_threat) either still
    // wins (one more threat confirmed; all confirmed: not written) or fails (written). A
    // threat move no longer playable is never confirmed, so its variation is written.
    bool shows_variation(Position& pos, int len, int j, int threat_len, const std::vector<Move>& threats) const {
        if (ctx_.problem.options.no_short_variations && len < j) return false;
        if (threat_len == 0) return true;
        if (len < threat_len) return false;
        if (len > threat_len) return true;
        size_t unconfirmed = threats.size();
        MoveList list;
        popeye_ordered_moves(pos, list);
        for (const Move& m : list) {
            if (std::none_of(threats.begin(), threats.end(), [&](const Move& t) { return same_as_threat(m, t); }))
                continue;
            UndoInfo u;
            pos.do_move(m, u);
            const bool works = attack_solves(pos, u, threat_len);
            pos.undo_move(m, u);
            if (!works) return true;
            if (--unconfirmed == 0) return false;
        }
        return true;
    }

    // Whether Popeye's move tables take m for threat t: the same departure and arrival, the
    // same promotion, and under Super-type rebirths the same chosen square. What a move
    // captures, and the rebirths that follow from it, do not count (Sd2-b1 is Sd2*b1).
    bool same_as_threat(const Move& m, const Move& t) const {
        // Mars and Anti-Mars moves start (in Popeye's journal) from the rebirth square.
        const bool mars = ctx_.rules.mars || ctx_.rules.antimars;
        const auto departure = [&](const Move& x) { return mars && x.extra != SQ_NONE ? x.extra : x.from; };
        if (departure(m) != departure(t) || m.to != t.to || m.promotion != t.promotion) return false;
        if ((m.kind == MoveKind::Castling) != (t.kind == MoveKind::Castling)) return false;
        const auto chosen = [](SquareRule r) {
            return r == SquareRule::Super || r == SquareRule::Cage || r == SquareRule::TakeMake;
        };
        if (chosen(ctx_.rules.square) || chosen(ctx_.rules.both_capturer.square))
            return m.rebirth == t.rebirth && m.rebirth_walk == t.rebirth_walk;
        return true;
    }

    // Whether root move m of `pos` (attacker to move, n moves) is shown, a solution or a try;
    // `is_key` tells which it was; `node` gets the key or try with the play below it (unset
    // otherwise), which format_battle_block writes as Popeye's block.
    bool root_tree(Position& pos, const Move& m, int n, bool& is_key, PlayNode& node) const {
        is_key = false;
        bool shown = false;
        PlayNode tree{PlayNode::Kind::Key, m, {}};
        const Options& opt = ctx_.problem.options;
        UndoInfo u;
        pos.do_move(m, u);
        if (goal_move(pos, u, n)) {
            is_key = shown = tree.goal = true;
        } else if (!defended_by_options(pos, n - 1)) {
            // A key is written at its shortest length (a short solution of an s#3 shows the
            // threats and variations of an s#2, as Popeye does).
            int len = n;
            if (!exact_)
                for (int k = 1; k < n; ++k)
                    if (defender_loses(pos, k - 1)) {
                        len = k;
                        break;
                    }
            const bool key = len < n || defender_loses(pos, n - 1);
            const int max_refutations = opt.defence.value_or(1);
            // Popeye has tries of one move in self play only: after an #1, =1 or r#1 move
            // the defender has no defences to refute it with (its machinery has no defence
            // branch there), after an s#1 move its moves must reach the goal.
            const bool tries = (opt.try_play || opt.defence.has_value()) && (n > 1 || mode_ == Mode::Self);
            if (key) {
                is_key = shown = true;
                if (opt.variation) write_defences(pos, len - 1, false, tree);
            } else if (std::vector<PlayNode> refutations;
                       tries && count_refutations(pos, n - 1, max_refutations + 1, refutations) <= max_refutations &&
                       !refutations.empty()) {
                shown = true;
                tree.kind = PlayNode::Kind::Try;
                if (opt.variation) write_defences(pos, n - 1, false, tree);
                for (PlayNode& r : refutations) tree.children.push_back(std::move(r));
            }
        }
        pos.undo_move(m, u);
        if (shown) node = std::move(tree);
        return shown;
    }

    // Options Threat n and MaxFlightsquares n, which Popeye applies at every defence
    // (options/maxthreatlength.c, options/maxflightsquares.c): with j attacker moves left the
    // defender to move has defended when, j >= n and not in check, the attacker threatens
    // nothing within n moves, or when its king has more than n flights (legal king moves).
    bool defended_by_options(Position& pos, int j) const {
        const Options& o = ctx_.problem.options;
        if (o.threat && j >= *o.threat && !pos.in_check()) {
            Position null = pos;
            null.set_side_to_move_for_analysis(~pos.side_to_move());
            if (attacker_min(null, *o.threat) == 0) return true;
        }
        return too_many_flights(pos, j);
    }

    // Option MaxFlightsquares n: with j >= 2 attacker moves left, the defender's king (to move)
    // has more than n flights (legal king moves).
    bool too_many_flights(const Position& pos, int j) const {
        const Options& o = ctx_.problem.options;
        if (!o.max_flights || j < 2) return false;
        const Square king = pos.king_square(pos.side_to_move());
        if (king == SQ_NONE) return false;
        MoveList list;
        generate_legal(pos, list);
        const auto flights = std::count_if(list.begin(), list.end(), [&](const Move& m) { return m.from == king; });
        return flights > *o.max_flights;
    }

    // Defender to move after a root move that does not solve: collects the refutations (the
    // defences after which the attacker cannot win within j), at most `limit` of them;
    // returns their number (limit when there are more). A defender without moves counts as
    // limit (the move fails without being refuted).
    int count_refutations(Position& pos, int j, int limit, std::vector<PlayNode>& refutations) const {
        MoveList list;
        popeye_ordered_moves(pos, list);
        if (list.empty()) return limit;
        int count = 0;
        for (const Move& d : list) {
            UndoInfo u;
            pos.do_move(d, u);
            const bool answered = defence_reaches_goal(pos, u) || (j > 0 && attacker_wins(pos, j));
            PlayNode refutation{PlayNode::Kind::Refutation, d, {}};
            refutation.goal = defence_goal(pos, u);
            // Reflex play: a refutation after which the attacker could reach the goal at once
            // (which it must not) carries those goal moves, written " ?!?" under it as Popeye
            // does.
            if (!answered && mode_ == Mode::Reflex && goal_reachable_in_one(pos, ctx_.goal))
                refutation.children = goal_move_nodes(ctx_, pos, PlayNode::Kind::Obliged);
            pos.undo_move(d, u);
            if (!answered) {
                refutations.push_back(std::move(refutation));
                if (++count >= limit) return limit;
            }
        }
        return count;
    }

    // Option PostKeyPlay: the diagram is the position after the key, the defender to move
    // with n - 1 attacker moves left; the play as after a key, refutations written among the
    // variations ("1...h5-h4" then "refutes."); none when the attacker is in check then, and
    // an empty one when Option MaxFlightsquares judges the diagram defended (Popeye 4.104
    // writes its empty line and no play then; Option Threat it does not apply there).
    std::optional<PlayNode> post_key_tree(const Position& initial, int n) const {
        Position pos = initial;
        pos.set_side_to_move_for_analysis(~initial.side_to_move());
        if (pos.in_check(~pos.side_to_move())) return std::nullopt;
        PlayNode tree{PlayNode::Kind::PostKey, Move{}, {}};
        if (too_many_flights(pos, n - 1)) return tree;
        write_defences(pos, n - 1, false, tree, true);
        return tree;
    }

    // Set play: the defender moves first; the answered defences with their play (none when
    // the attacker is in check then).
    std::optional<PlayNode> set_play_tree(const Position& initial, int n) const {
        Position pos = initial;
        pos.set_side_to_move_for_analysis(~initial.side_to_move());
        if (pos.in_check(~pos.side_to_move())) return std::nullopt;
        PlayNode tree{PlayNode::Kind::SetPlay, Move{}, {}};
        write_defences(pos, n - 1, true, tree);
        return tree;
    }

  private:
    // Transposition table: Position::exact_key() (no collision can drop a solution), the
    // attacker moves left and which side's question (0 = defender_loses, 1 = attacker_wins),
    // with the answer.
    static constexpr size_t kMaxCacheEntries = size_t(1) << 22;  // about 400 MiB per thread

    const SolveContext& ctx_;
    Mode mode_;
    bool exact_;
    // One table per thread (the positions differ only by the moves each thread tries).
    mutable tbb::enumerable_thread_specific<ExactSet> cache_;
};

}  // namespace

namespace {

// The root moves of a phase in Popeye's order: an #1 (or +1) is its final move, which Popeye
// generates with its mating-move generator.
void root_moves(const SolveContext& ctx, Mode mode, const Position& root, int n, MoveList& list) {
    if (n == 1 && mode == Mode::Direct && final_move_order(root, ctx.goal))
        popeye_ordered_final_moves(root, list);
    else
        popeye_ordered_moves(root, list);
}

// Searches one phase of battle play (set play or post-key play if asked, then keys and tries)
// with `root`'s side to move as the attacker, putting its trees into `out` (as play `phase`)
// in output order; returns true when MaxSolutions cut it (the keys after the n-th are not
// shown).
bool solve_phase(const SolveContext& ctx, const BattleSolver& solver, Mode mode, const Position& root, int n, int phase,
                 TwinOutput& out) {
    const Color attacker = root.side_to_move();
    // Option PostKeyPlay: only the play after the (absent) key, which may have given check.
    if (ctx.problem.options.post_key_play) {
        if (std::optional<PlayNode> tree = solver.post_key_tree(root, n))
            out.trees.push_back({0, phase, attacker, std::move(*tree)});
        return false;
    }
    // A diagram where the attacker's opponent is in check has no play (Duplex halves).
    if (root.in_check(~root.side_to_move())) return false;
    // Set play of an s#1 or r#1 is the defender's goal moves.
    if (ctx.problem.options.set_play && (n >= 2 || mode != Mode::Direct))
        if (std::optional<PlayNode> tree = solver.set_play_tree(root, n))
            out.trees.push_back({0, phase, attacker, std::move(*tree)});
    Position probe = root;
    // A reflex attacker able to reach the goal must: its goal moves follow from the position.
    if (mode == Mode::Reflex && goal_reachable_in_one(probe, ctx.goal)) return false;
    MoveList list;
    root_moves(ctx, mode, root, n, list);
    std::vector<Move> moves(list.begin(), list.end());
    std::vector<char> shown(moves.size(), 0);
    std::vector<PlayNode> nodes(moves.size());
    if (ctx.control) ctx.control->start_root(static_cast<int>(moves.size()));
    run_in_arena(ctx.threads, [&] {
        for_each_index(ctx.threads, moves.size(), [&](size_t i) {
            Position pos = root;
            bool key = false;
            shown[i] = solver.root_tree(pos, moves[i], n, key, nodes[i]);
            if (ctx.control) ctx.control->root_move_done();
        });
    });
    // MaxSolutions: the output ends at the n-th tree that counts (counts_as_solution; not with
    // Option MoveNumbers, which lists every root move).
    const std::optional<int>& max_solutions = ctx.problem.options.max_solutions;
    int solutions = 0;
    for (size_t i = 0; i < moves.size(); ++i) {
        const bool counted = shown[i] && counts_as_solution(mode, nodes[i].kind);
        if (shown[i]) out.trees.push_back({0, phase, attacker, std::move(nodes[i])});
        if (!ctx.problem.options.move_numbers && counted && max_solutions && ++solutions >= *max_solutions &&
            i + 1 < moves.size()) {
            if (ctx.partial) *ctx.partial = true;
            return true;
        }
    }
    return false;
}

// Popeye's text of one phase of battle play from its trees (those of `found` with play
// `phase`, from `next` on: `next` is moved past them), ending with the phase's closing empty
// line unless MaxSolutions cut it; returns true when it was cut.
bool render_phase(const SolveContext& ctx, Mode mode, const Position& root, int n, int phase, const TwinOutput& found,
                  size_t& next, std::string& out) {
    const std::vector<PlayTree>& trees = found.trees;
    auto take = [&](PlayNode::Kind kind) -> const PlayTree* {
        if (next < trees.size() && trees[next].play == phase && trees[next].root.kind == kind) return &trees[next++];
        return nullptr;
    };
    auto switched = [&] {
        Position pos = root;
        pos.set_side_to_move_for_analysis(~root.side_to_move());
        return pos;
    };
    // A set play or post-key tree: the defender to move, no move at its root.
    auto defender_block = [&](const PlayTree& t) {
        const Position pos = switched();
        if (t.first != root.side_to_move() || t.root.move != Move{} || pos.in_check(~pos.side_to_move()))
            throw std::invalid_argument("a tree of set play or post-key play that the play does not have");
        if (ctx.check) check_tree_below(pos, t.root);
        return format_battle_block(pos, t.root, ctx.goal, ctx.problem.language);
    };
    // Option PostKeyPlay: the diagram is after the key, which may have given check.
    if (ctx.problem.options.post_key_play) {
        if (const PlayTree* t = take(PlayNode::Kind::PostKey)) out += defender_block(*t);
        return false;
    }
    // A play whose attacker could take the king (a Duplex half) is not played; Popeye says
    // so on stderr only.
    if (root.in_check(~root.side_to_move())) return false;
    // Each block (set play, each key or try) starts with an empty line; one more ends the
    // play (the front end adds the last one before "solution finished.").
    std::string result;
    if (ctx.problem.options.set_play && (n >= 2 || mode != Mode::Direct))
        if (const PlayTree* t = take(PlayNode::Kind::SetPlay)) result += defender_block(*t);
    Position probe = root;
    // Popeye closes these lines without the empty line that ends a phase.
    if (mode == Mode::Reflex && goal_reachable_in_one(probe, ctx.goal)) {
        const std::vector<PlayNode> obliged = goal_move_nodes(ctx, probe, PlayNode::Kind::Obliged);
        out += result + format_battle_obliged(probe, obliged, ctx.goal, ctx.problem.language);
        return false;
    }
    MoveList list;
    root_moves(ctx, mode, root, n, list);
    const std::vector<Move> moves(list.begin(), list.end());
    // The block of root move i: its tree's, when the next tree is of that move.
    auto block = [&](size_t i) -> std::string {
        if (next >= trees.size() || trees[next].play != phase || trees[next].root.move != moves[i] ||
            (trees[next].root.kind != PlayNode::Kind::Key && trees[next].root.kind != PlayNode::Kind::Try))
            return "";
        return direct_tree_text(ctx, phase, trees[next++]);
    };
    // Option MoveNumbers: before each root move Popeye writes its number and the move
    // ("  4  (Ta1-d1 )"); a block then follows without its leading empty line and is closed
    // by one (BEISPIEL/castling.inp).
    // Popeye numbers every move it generates, also those it then finds illegal.
    if (ctx.problem.options.move_numbers) {
        MoveList generated;
        popeye_ordered_pseudo_moves(root, generated);
        size_t at = 0;
        result += "\n";
        for (int g = 0; g < generated.size(); ++g) {
            Position pos = root;
            const std::string text = move_to_popeye(pos, generated[g], false, ctx.problem.language);
            UndoInfo u;
            pos.do_move(generated[g], u);
            char number[16];
            std::snprintf(number, sizeof number, "%3d", g + 1);
            result += std::string(number) + "  (" + text + (pos.in_check() ? " +" : "") + " )\n";
            if (at < moves.size() && moves[at] == generated[g]) {
                const std::string b = block(at);
                if (!b.empty()) result += b.substr(1) + "\n";
                ++at;
            }
        }
        out += result;
        return false;
    }
    // MaxSolutions: the search stops at the n-th tree that counts (counts_as_solution); the
    // output then ends there.
    const std::optional<int>& max_solutions = ctx.problem.options.max_solutions;
    int solutions = 0;
    for (size_t i = 0; i < moves.size(); ++i) {
        const bool counted = next < trees.size() && trees[next].play == phase && trees[next].root.move == moves[i] &&
                             counts_as_solution(mode, trees[next].root.kind);
        result += block(i);
        if (counted && max_solutions && ++solutions >= *max_solutions && i + 1 < moves.size()) {
            out += result;
            return true;
        }
    }
    out += result + "\n";
    return false;
}

}  // namespace

namespace {

// What solve_direct plays: the mode, the number of moves and each phase's diagram (the
// attacker to move); false when it does not handle the stipulation.
bool direct_plan(const SolveContext& ctx, Mode& mode, int& n, std::vector<Position>& roots) {
    const Stipulation& stip = ctx.problem.stipulation;
    switch (stip.play) {
        case Stipulation::Play::Direct:
            mode = Mode::Direct;
            break;
        case Stipulation::Play::Self:
            mode = Mode::Self;
            break;
        case Stipulation::Play::Reflex:
            mode = Mode::Reflex;
            break;
        default:
            return false;
    }
    if (stip.series || stip.intro != 0 || ctx.goal == Goal::Unsupported) return false;
    n = static_cast<int>(stip.moves);
    if (n < 1 || static_cast<double>(n) != stip.moves) return false;
    // Duplex: the play, then the same play with the other side as the attacker; HalfDuplex:
    // only the latter.
    const Options& opt = ctx.problem.options;
    std::vector<Color> attackers;
    if (!opt.half_duplex) attackers.push_back(ctx.initial.side_to_move());
    if (opt.duplex || opt.half_duplex) attackers.push_back(~ctx.initial.side_to_move());
    for (Color c : attackers) {
        Position root = ctx.initial;
        if (root.side_to_move() != c) root.set_side_to_move_for_analysis(c);
        roots.push_back(std::move(root));
    }
    return true;
}

}  // namespace

bool solve_direct(const SolveContext& ctx) {
    Mode mode{};
    int n = 0;
    std::vector<Position> roots;
    if (!direct_plan(ctx, mode, n, roots)) return false;
    const BattleSolver solver(ctx, mode, ctx.problem.stipulation.exact);
    TwinOutput scratch;
    TwinOutput& out = ctx.output ? *ctx.output : scratch;
    for (size_t k = 0; k < roots.size(); ++k)
        out.last_cut = solve_phase(ctx, solver, mode, roots[k], n, static_cast<int>(k), out);
    return true;
}

bool render_direct(const SolveContext& ctx, const TwinOutput& found, std::string& out) {
    Mode mode{};
    int n = 0;
    std::vector<Position> roots;
    if (!direct_plan(ctx, mode, n, roots)) return false;
    if (!found.lines.empty()) throw std::invalid_argument("lines in battle play");
    // Each phase ends with its own empty line.
    std::string result;
    size_t next = 0;
    for (size_t k = 0; k < roots.size(); ++k) {
        // The second play of a Duplex: Popeye builds its solving machinery again and writes the
        // solving notes again (the first play's follow the header).
        if (k > 0) result += format_solving_notes(ctx.problem);
        const bool cut = render_phase(ctx, mode, roots[k], n, static_cast<int>(k), found, next, result);
        // A cut phase lacks its closing line; a later phase still starts on a line of its own.
        if (cut && k + 1 < roots.size()) result += "\n";
    }
    if (next != found.trees.size()) throw std::invalid_argument("trees of a play or root move the twin does not have");
    out += result;
    return true;
}

bool split_direct(const SolveContext& ctx, std::vector<SplitPhase>& phases) {
    const Options& opt = ctx.problem.options;
    Mode mode{};
    int n = 0;
    std::vector<Position> roots;
    if (!direct_plan(ctx, mode, n, roots)) return false;
    if (opt.max_solutions || opt.post_key_play || opt.move_numbers ||
        (opt.set_play && (n >= 2 || mode != Mode::Direct)))
        return false;
    // A Duplex whose solving notes come again before its second play is not split (the
    // assembly writes no notes between plays).
    if (opt.duplex && !format_solving_notes(ctx.problem).empty()) return false;
    std::vector<SplitPhase> result;
    for (Position& root : roots) {
        SplitPhase sp;
        sp.blocked = root.in_check(~root.side_to_move());
        // As solve_phase: a reflex attacker able to reach the goal has no play of its own
        // (its goal moves, marked " ?!?", are not split).
        if (!sp.blocked && mode == Mode::Reflex && goal_reachable_in_one(root, ctx.goal)) return false;
        if (!sp.blocked) {
            MoveList list;
            root_moves(ctx, mode, root, n, list);
            sp.moves.assign(list.begin(), list.end());
        }
        result.push_back(std::move(sp));
    }
    phases = std::move(result);
    return true;
}

std::vector<PlayTree> direct_root_trees(const SolveContext& ctx, int phase, int root) {
    Mode mode{};
    int n = 0;
    std::vector<Position> roots;
    if (!direct_plan(ctx, mode, n, roots) || phase < 0 || phase >= int(roots.size()))
        throw std::logic_error("no such battle play to split");
    Position pos = roots[phase];
    MoveList list;
    root_moves(ctx, mode, pos, n, list);
    if (root < 0 || root >= list.size()) throw std::logic_error("no such root move");
    const BattleSolver solver(ctx, mode, ctx.problem.stipulation.exact);
    bool key = false;
    PlayNode node;
    if (!solver.root_tree(pos, list[root], n, key, node)) return {};
    return {PlayTree{0, phase, pos.side_to_move(), std::move(node)}};
}

std::string direct_tree_text(const SolveContext& ctx, int phase, const PlayTree& tree) {
    Mode mode{};
    int n = 0;
    std::vector<Position> roots;
    if (!direct_plan(ctx, mode, n, roots) || phase < 0 || phase >= int(roots.size()))
        throw std::invalid_argument("a tree of a battle play the problem does not have");
    const Position& pos = roots[size_t(phase)];
    if (tree.play != phase || tree.first != pos.side_to_move()) throw std::invalid_argument("a tree of another play");
    if (ctx.check) check_tree(pos, tree.root);
    return format_battle_block(pos, tree.root, ctx.goal, ctx.problem.language);
}

}  // namespace rebirth
