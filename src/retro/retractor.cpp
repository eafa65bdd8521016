#include "rebirth/retractor.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include <tbb/enumerable_thread_specific.h>

#include "core/parallel.h"
#include "rebirth/goal.h"
#include "rebirth/movegen.h"
#include "rebirth/position.h"
#include "rebirth/retro.h"

namespace rebirth {

namespace {

// The side's unit and the square it comes back to: what a Høeg retraction chooses (the
// other side chooses what it uncaptured). The unit is named by where it stands now.
using Shape = std::tuple<Square, Square, int, int, Square>;
Shape shape_of(const UnMove& u) {
    const Square now = u.capturer_now != SQ_NONE ? u.capturer_now : u.move.to;
    // A diagonal pawn step is a capture, en passant or not: one shape.
    const int kind = u.move.kind == MoveKind::EnPassant ? int(MoveKind::Normal) : int(u.move.kind);
    return {now, u.move.from, kind, int(u.move.promotion), u.rook_from};
}

// The position with the castling rights Art. 16 of the Codex presumes: every king and rook
// on its game-array square may castle (a king without a rook there, or the reverse, none).
Setup presumed_castling(Setup s) {
    s.castling = 0;
    for (Color c : {WHITE, BLACK}) {
        const int rank = c == WHITE ? 0 : 7;
        const Square king = make_square(4, rank);
        if (s.board[king] != make_piece(c, KING)) continue;
        Bitboard rooks = 0;
        for (int file : {0, 7})
            if (s.board[make_square(file, rank)] == make_piece(c, ROOK)) rooks |= square_bb(make_square(file, rank));
        if (rooks) s.castling |= rooks | square_bb(king);
    }
    return s;
}

std::string_view aim_mark(RetractorAim aim) {
    switch (aim) {
        case RetractorAim::Mate:
            return "#";
        case RetractorAim::Stalemate:
            return "=";
        case RetractorAim::SelfMate:
            return "";
    }
    return "";
}

// The legal moves of the side to move in pos that reach the aim at once: mate or stalemate
// the opponent, or (s#1) leave the opponent moves that all mate. With `first_only`, the first
// such move alone (enough for a value).
std::vector<Move> aim_moves(const Position& pos, RetractorAim aim, bool first_only = false) {
    MoveList list;
    generate_legal(pos, list);
    std::vector<Move> out;
    Position scratch = pos;
    UndoInfo u;
    for (const Move& m : list) {
        scratch.do_move(m, u);
        bool reached = false;
        switch (aim) {
            case RetractorAim::Mate:
                reached = goal_reached(scratch, u, Goal::Mate);
                break;
            case RetractorAim::Stalemate:
                reached = goal_reached(scratch, u, Goal::Stalemate);
                break;
            case RetractorAim::SelfMate:
                reached = goal_forced_in_one(scratch, Goal::Mate);
                break;
        }
        scratch.undo_move(m, u);
        if (reached) {
            out.push_back(m);
            if (first_only) break;
        }
    }
    return out;
}

// Thrown by the search when its time limit has passed.
struct RetractorTimeout {};

// The values ordered for White: Fail < Unknown < Win.
int rank(RetractorValue v) { return v == RetractorValue::Win ? 2 : v == RetractorValue::Unknown ? 1 : 0; }
// White's pick of two choices (the better one) and the other side's (the worse one).
RetractorValue either(RetractorValue a, RetractorValue b) { return rank(a) >= rank(b) ? a : b; }
RetractorValue both(RetractorValue a, RetractorValue b) { return rank(a) <= rank(b) ? a : b; }

// A step for side's retraction u from `position` (the position after the retracted move).
RetractorStep step_of(Color side, const Setup& position, const UnMove& u, const RuleSet* rules) {
    RetractorStep step;
    step.side = side;
    step.retraction = u;
    step.text = janko_notation(position, u, rules);
    return step;
}

struct Forward {
    RetractorValue value = RetractorValue::Fail;
    std::vector<std::string> moves;  // "1.Qa8#", for a win
    std::vector<Move> data;          // the same moves
};

// The text of forward move m reaching the aim in s (the position the last retraction led
// back to), as the search writes it: played with the castling rights the Codex presumes and,
// for an en passant capture, the double step it takes as the last move.
std::string forward_text(const Setup& s, const Move& m, RetractorAim aim, const RuleSet* rules) {
    Setup start = presumed_castling(s);
    if (m.kind == MoveKind::EnPassant) start.ep_square = m.to;
    return "1." + forward_notation(start, m, rules) + std::string(aim_mark(aim));
}

// The choices of one side in a position, for White: the value (some choice wins) and
// the winning choices; for Black: the value (every defence loses) and the defences with
// White's winning answers. `legal` false: the side has no legal retraction (the position
// is illegal, and so the retraction that led to it).
struct Node {
    RetractorValue value = RetractorValue::Fail;
    std::vector<RetractorStep> steps;
    bool legal = true;
};

// A node's value without its tree; `legal` as Node's.
struct Value {
    RetractorValue value = RetractorValue::Fail;
    bool legal = false;
};

// Entries a solver's table holds at most: a full one is emptied (every entry is a function of
// its position, so only time is lost). A solver now lives through all the first choices of its
// thread, so its tables would otherwise grow with the whole search.
constexpr std::size_t kMaxTableEntries = std::size_t(1) << 21;

// Adds key -> value to `table`, emptied first when full.
template <class Table, class Key, class Value>
void remember(Table& table, Key&& key, Value&& value) {
    if (table.size() >= kMaxTableEntries) table.clear();
    table.emplace(std::forward<Key>(key), std::forward<Value>(value));
}

// What one White retraction (or Black's, for the forward defence) leads to, and the whole
// tree below it. Two phases: the values first (white_value, black_value: a node ends at its
// first win or refutation, the legality of a retraction is asked only when it matters), then
// the trees of the winning choices only (white_node, black_node, white_step, black_step: every
// winning answer and every defence, as the output lists them), which ask the values to skip
// the choices that do not win. Every table is a function of the positions, so one Solver may
// work several first choices in turn.
struct Solver {
    const RetractorSpec& spec;
    const RuleSet* rules;
    SetupRules setup_rules;
    std::map<std::string, Node> white_memo, black_memo;
    // The values alone (the value phase: no tree, the first win or refutation ends a node),
    // and may_be_legal's verdicts, per position.
    std::unordered_map<std::string, Value> white_values, black_values;
    std::unordered_map<std::string, bool> legal_memo;
    // Per number of White retractions left: the last retraction whose line won for White, and
    // the last whose line refuted for Black (tried early in the next node of that count: the
    // order changes no value).
    std::unordered_map<int, UnMove> white_killer, black_killer;
    std::optional<std::chrono::steady_clock::time_point> deadline;
    unsigned visits = 0;

    Solver(const RetractorSpec& sp, const RuleSet* r) : spec(sp), rules(effective_rules(r)) {
        setup_rules.rules = rules;
    }

    // Throws RetractorTimeout once the deadline (if any) has passed, looking at the clock at
    // the first node and then every 64.
    void tick() {
        if (deadline && (visits++ & 63u) == 0 && std::chrono::steady_clock::now() > *deadline) throw RetractorTimeout{};
    }

    // The retractions of the side that did not move in s whose earlier position passes
    // may_be_legal and that the retracted line's history allows (fits_history: after a
    // retracted en passant capture only the double step it took; after a retracted castling
    // no move of its king or rook), in generate_unmoves' order.
    std::vector<UnMove> legal_retractions(const Setup& s) {
        std::vector<UnMove> out;
        for (const UnMove& u : history_retractions(s))
            if (earlier_legal(s, u)) out.push_back(u);
        return out;
    }

    // The retractions of s that the retracted line's history allows (fits_history), before
    // may_be_legal is asked (drop_pacific is not applied).
    std::vector<UnMove> history_retractions(const Setup& s) const {
        std::vector<UnMove> all, out;
        generate_unmoves(s, all, rules);
        for (const UnMove& u : all)
            if (fits_history(s, u, rules)) out.push_back(u);
        return out;
    }

    // Whether the position before u passes may_be_legal, remembered per position.
    bool earlier_legal(const Setup& s, const UnMove& u) {
        const Setup earlier = retract_keeping_rights(s, u);
        std::string key = to_fen(earlier);
        if (const auto it = legal_memo.find(key); it != legal_memo.end()) return it->second;
        const bool legal = may_be_legal(earlier, spec.depth, rules);
        remember(legal_memo, std::move(key), legal);
        return legal;
    }

    // Whether the side to move in s reaches the aim with one forward move: castling as the
    // Codex presumes it, en passant only where s proves it or the last move is proved to be
    // the double step (else a capture that would reach the aim leaves the answer unknown).
    // With `value_only` the value alone is sure (`moves` may miss some, unwritten).
    Forward forward_aim(const Setup& s, bool value_only = false) const {
        Forward f;
        const Setup start = presumed_castling(s);
        Position pos;
        try {
            if (!pos.load(start, setup_rules)) return f;
        } catch (const std::exception&) {
            return f;  // a position the rules do not load (not reached by legal play)
        }
        for (const Move& m : aim_moves(pos, spec.aim, value_only)) {
            f.moves.push_back(value_only ? std::string() : forward_text(s, m, spec.aim, rules));
            f.data.push_back(m);
        }
        if (!f.moves.empty()) {
            f.value = RetractorValue::Win;
            return f;
        }
        if (s.ep_square != SQ_NONE) return f;
        // En passant: a pawn of the opponent on its fourth rank beside one of the mover's,
        // the two squares behind it empty, may just have made its double step.
        const Color x = s.side_to_move;
        const int rank = x == WHITE ? 4 : 3, step = x == WHITE ? 8 : -8;
        std::optional<std::vector<UnMove>> last;
        bool unknown = false;
        for (int file = 0; file < 8; ++file) {
            const Square p = make_square(file, rank);
            if (s.board[p] != make_piece(~x, PAWN)) continue;
            const Square passed = Square(p + step), origin = Square(p + 2 * step);
            if (!s.board[passed].empty() || !s.board[origin].empty()) continue;
            bool beside = false;
            for (int g : {file - 1, file + 1})
                if (g >= 0 && g < 8 && s.board[make_square(g, rank)] == make_piece(x, PAWN)) beside = true;
            if (!beside) continue;
            Setup with_ep = start;
            with_ep.ep_square = passed;
            Position ep_pos;
            try {
                if (!ep_pos.load(with_ep, setup_rules)) continue;
            } catch (const std::exception&) {
                continue;
            }
            std::vector<std::string> moves;
            std::vector<Move> data;
            for (const Move& m : aim_moves(ep_pos, spec.aim))
                if (m.kind == MoveKind::EnPassant) {
                    moves.push_back(forward_text(s, m, spec.aim, rules));
                    data.push_back(m);
                }
            if (moves.empty()) continue;
            if (!last) last = possible_last_moves(s, spec.depth, rules, 1, false);
            const auto is_double_step = [&](const UnMove& u) {
                return u.move.from == origin && u.move.to == p && u.move.kind == MoveKind::Normal &&
                       u.uncaptured == NO_WALK;
            };
            if (!last->empty() && std::all_of(last->begin(), last->end(), is_double_step)) {
                f.moves.insert(f.moves.end(), moves.begin(), moves.end());
                f.data.insert(f.data.end(), data.begin(), data.end());
            } else if (std::any_of(last->begin(), last->end(), is_double_step)) {
                unknown = true;
            }
        }
        f.value = !f.moves.empty() ? RetractorValue::Win : unknown ? RetractorValue::Unknown : RetractorValue::Fail;
        return f;
    }

    // Pacific has no uncaptures: those retractions are dropped.
    void drop_pacific(std::vector<UnMove>& list) const {
        if (spec.type != RetractorType::Pacific) return;
        list.erase(std::remove_if(list.begin(), list.end(),
                                  [](const UnMove& u) {
                                      return u.uncaptured != NO_WALK || !u.resurrected.empty() || u.capturer_lost;
                                  }),
                   list.end());
    }

    // Whether the side retracting in s decides its own uncaptures (each retraction a choice of
    // its own): Proca, Pacific, White's under Klan.
    bool singletons(const Setup& s) const {
        return spec.type == RetractorType::Proca || spec.type == RetractorType::Pacific ||
               (spec.type == RetractorType::Klan && ~s.side_to_move == WHITE);
    }

    // The retractions of s grouped as their chooser decides them: one a group where the
    // retracting side decides its uncaptures (Proca, Pacific, White's under Klan); else one
    // group per shape (its members: the opponent's choices of what was uncaptured). Pacific
    // has no uncaptures.
    std::vector<std::vector<UnMove>> groups(const Setup& s) {
        std::vector<std::vector<UnMove>> out;
        std::vector<UnMove> legal = legal_retractions(s);
        drop_pacific(legal);
        if (singletons(s)) {
            for (const UnMove& u : legal) out.push_back({u});
            return out;
        }
        std::vector<Shape> shapes;
        for (const UnMove& u : legal) {
            const Shape sh = shape_of(u);
            const auto it = std::find(shapes.begin(), shapes.end(), sh);
            if (it == shapes.end()) {
                shapes.push_back(sh);
                out.push_back({u});
            } else {
                out[size_t(it - shapes.begin())].push_back(u);
            }
        }
        return out;
    }

    // The entry of `memo` (a tree node, or a value alone) for s with k retractions left, worked
    // out by work() the first time.
    template <class Table, class Work>
    typename Table::mapped_type memoized(Table& memo, const Setup& s, int k, Work&& work) {
        tick();
        const std::string key = to_fen(s) + " " + std::to_string(k);
        if (const auto it = memo.find(key); it != memo.end()) return it->second;
        typename Table::mapped_type result = work();
        remember(memo, key, result);
        return result;
    }

    // White's retraction u from s (Black to move in s), with k White retractions left after
    // it; nullopt when it is not legal (Black then has no retraction).
    std::optional<RetractorStep> white_step(const Setup& s, const UnMove& u, int k) {
        RetractorStep step = step_of(WHITE, s, u, rules);
        const Setup before = retract_keeping_rights(s, u);
        const Forward fw = forward_aim(before);
        if (fw.value == RetractorValue::Win) {
            step.value = RetractorValue::Win;
            step.forward = fw.moves;
            step.forward_moves = fw.data;
            return step;
        }
        if (k == 0) {
            step.value = fw.value;
            return step;
        }
        Node black = black_node(before, k);
        if (!black.legal) return std::nullopt;
        // Not mating now (perhaps, when en passant is not settled) and going on.
        step.value = either(fw.value, black.value);
        step.next = std::move(black.steps);
        return step;
    }

    // Black's retractions from `before` (White to move), k White retractions left after them.
    // Under Høeg Black chooses the shape and White what it uncaptured (White's best counts).
    Node black_node(const Setup& before, int k) {
        return memoized(black_memo, before, k, [&] {
            Node result;
            result.value = RetractorValue::Win;
            result.legal = false;
            for (const std::vector<UnMove>& group : groups(before)) {
                RetractorValue group_value = RetractorValue::Fail;
                std::vector<RetractorStep> steps;
                bool group_legal = false;
                for (const UnMove& b : group) {
                    std::optional<RetractorStep> st = black_step(before, b, k);
                    if (!st) continue;
                    group_legal = true;
                    group_value = either(group_value, st->value);
                    if (st->value != RetractorValue::Fail) steps.push_back(std::move(*st));
                }
                if (!group_legal) continue;
                result.legal = true;
                result.value = both(result.value, group_value);
                if (result.value == RetractorValue::Fail) break;  // a refutation: White loses here
                for (RetractorStep& st : steps) result.steps.push_back(std::move(st));
            }
            if (result.value == RetractorValue::Fail || !result.legal) {
                result.value = RetractorValue::Fail;
                result.steps.clear();
            }
            return result;
        });
    }

    // Black's retraction b from `before` (White to move), then White's retractions; nullopt
    // when b is not legal (White then has no retraction).
    std::optional<RetractorStep> black_step(const Setup& before, const UnMove& b, int k) {
        RetractorStep step = step_of(BLACK, before, b, rules);
        const Setup earlier = retract_keeping_rights(before, b);
        Forward fd;
        if (spec.forward_defence) fd = forward_aim(earlier);
        if (fd.value == RetractorValue::Win) {
            step.value = RetractorValue::Fail;
            step.forward = fd.moves;
            step.forward_moves = fd.data;
            return step;
        }
        Node white = white_node(earlier, k);
        if (!white.legal) return std::nullopt;
        // A forward defence not settled (en passant) leaves White's win unsettled too.
        step.value = fd.value == RetractorValue::Unknown ? both(white.value, RetractorValue::Unknown) : white.value;
        step.next = std::move(white.steps);
        return step;
    }

    // White's retractions from s (Black to move), k of them left (k >= 1): the value (some
    // choice wins) and the winning choices (under Høeg a shape's steps together).
    Node white_node(const Setup& s, int k) {
        return memoized(white_memo, s, k, [&] {
            Node result;
            result.legal = false;
            for (const std::vector<UnMove>& group : groups(s)) {
                // The value phase first: only a winning choice's tree is built.
                const Value v = group_value(s, group, k);
                if (!v.legal) continue;  // no legal choice in the group
                result.legal = true;
                result.value = either(result.value, v.value);
                if (v.value != RetractorValue::Win) continue;
                for (RetractorStep& st : white_group(s, group, k).second) result.steps.push_back(std::move(st));
            }
            return result;
        });
    }

    // One White choice: Proca one retraction; Høeg one shape, every uncapture Black may
    // choose for it (all must win). The steps are the group's legal members.
    std::pair<RetractorValue, std::vector<RetractorStep>> white_group(const Setup& s, const std::vector<UnMove>& group,
                                                                      int k) {
        RetractorValue value = RetractorValue::Win;
        std::vector<RetractorStep> steps;
        for (const UnMove& u : group) {
            std::optional<RetractorStep> st = white_step(s, u, k - 1);
            if (!st) continue;
            value = both(value, st->value);
            steps.push_back(std::move(*st));
        }
        return {value, steps};
    }

    // The value phase. White's group (a choice) from s with k retractions left, its members
    // legal: the least value over them (Høeg: Black picks the uncapture); `legal` false when
    // no member is (each leaves Black no retraction). `kept` (when given) gets the members
    // that are legal.
    Value group_value(const Setup& s, const std::vector<UnMove>& group, int k, std::vector<UnMove>* kept = nullptr) {
        Value r{RetractorValue::Win, false};
        for (const UnMove& u : group) {
            const std::optional<RetractorValue> v = white_step_value(s, u, k - 1);
            if (!v) continue;
            r.legal = true;
            r.value = both(r.value, *v);
            if (kept) kept->push_back(u);
            if (r.value == RetractorValue::Fail && !kept) break;
        }
        if (!r.legal) r.value = RetractorValue::Fail;
        return r;
    }

    // The value of White's retraction u from s (whose own legality is not asked), k left
    // after it; nullopt when Black then has no legal retraction.
    std::optional<RetractorValue> white_step_value(const Setup& s, const UnMove& u, int k,
                                                   const Forward* known = nullptr) {
        const Setup before = retract_keeping_rights(s, u);
        const Forward fw = known ? *known : forward_aim(before, true);
        if (fw.value == RetractorValue::Win) return RetractorValue::Win;
        if (k == 0) return fw.value;
        const Value black = black_value(before, k);
        if (!black.legal) return std::nullopt;
        return either(fw.value, black.value);
    }

    // The value of Black's retraction b from `before` (whose own legality is not asked);
    // nullopt when White then has no legal retraction.
    std::optional<RetractorValue> black_step_value(const Setup& before, const UnMove& b, int k,
                                                   const Forward* known = nullptr) {
        const Setup earlier = retract_keeping_rights(before, b);
        Forward fd;
        if (known)
            fd = *known;
        else if (spec.forward_defence)
            fd = forward_aim(earlier, true);
        if (fd.value == RetractorValue::Win) return RetractorValue::Fail;
        const Value white = white_value(earlier, k);
        if (!white.legal) return std::nullopt;
        return fd.value == RetractorValue::Unknown ? both(white.value, RetractorValue::Unknown) : white.value;
    }

    // The node s of the side that decides its own uncaptures (`side` retracts; k White
    // retractions left after White's, or after Black's): the best value for it over its
    // retractions (White: the highest, Black: the lowest), the first decisive one (a win, a
    // refutation) ending it. Tried in this order (no value depends on it): those that are
    // decisive by a forward move at once (White's aim, Black's forward defence) and the one
    // that was decisive in the last node of this k (`killers`), then the lines below the
    // others. A retraction's legality (may_be_legal) is asked only when its value would change
    // the node's, or when no legal one has been seen at the end.
    Value choose(const Setup& s, int k, Color side) {
        const bool white = side == WHITE;
        std::vector<UnMove> list = history_retractions(s), pending;
        drop_pacific(list);
        const RetractorValue decisive = white ? RetractorValue::Win : RetractorValue::Fail;
        const auto better = [&](RetractorValue a, RetractorValue b) {
            return white ? rank(a) > rank(b) : rank(a) < rank(b);
        };
        std::unordered_map<int, UnMove>& killers = white ? white_killer : black_killer;
        Value r{white ? RetractorValue::Fail : RetractorValue::Win, false};
        std::vector<std::optional<Forward>> now(list.size());
        std::vector<char> seen(list.size(), 0);
        const auto value_of = [&](size_t i) {
            const Forward* known = now[i] ? &*now[i] : nullptr;
            return white ? white_step_value(s, list[i], k - 1, known) : black_step_value(s, list[i], k, known);
        };
        // Whether list[i], of value v, decides the node
        // (`line`: decided by the line below it, which makes it the killer; a forward move is
        // found by the forward pass anyway.)
        const auto consider = [&](size_t i, std::optional<RetractorValue> v, bool line = true) {
            seen[i] = 1;
            if (!v) return false;
            if (!better(*v, r.value)) {
                if (!r.legal) pending.push_back(list[i]);
                return false;
            }
            if (!earlier_legal(s, list[i])) return false;
            r = {*v, true};
            if (r.value != decisive) return false;
            if (line) killers.insert_or_assign(k, list[i]);
            return true;
        };
        bool done = false;
        const auto killer = [&] {
            if (const auto it = killers.find(k); it != killers.end() && !done) {
                const auto at = std::find(list.begin(), list.end(), it->second);
                const size_t i = size_t(at - list.begin());
                if (at != list.end() && !seen[i]) done = consider(i, value_of(i));
            }
        };
        const auto forward = [&] {
            if (!white && !spec.forward_defence) return;
            for (size_t i = 0; i < list.size() && !done; ++i) {
                if (seen[i]) continue;
                now[i] = forward_aim(retract_keeping_rights(s, list[i]), true);
                if (now[i]->value == RetractorValue::Win) done = consider(i, decisive, false);
            }
        };
        // A forward s#1 (every reply of the opponent mates) costs more than most lines: the
        // killer's line first there.
        if (spec.aim == RetractorAim::SelfMate) {
            killer();
            forward();
        } else {
            forward();
            killer();
        }
        for (size_t i = 0; i < list.size() && !done; ++i)
            if (!seen[i]) done = consider(i, value_of(i));
        if (!r.legal)
            for (const UnMove& u : pending)
                if (earlier_legal(s, u)) {
                    r.legal = true;
                    break;
                }
        return r;
    }

    // White's node s (k >= 1 left): the best value over its choices, the first win ending it.
    // Where White decides its uncaptures, a retraction's legality (may_be_legal) is asked only
    // when its value would raise the node's, or when no legal one has been seen at the end.
    Value white_value(const Setup& s, int k) {
        return memoized(white_values, s, k, [&] {
            if (singletons(s)) return choose(s, k, WHITE);
            Value r;
            for (const std::vector<UnMove>& group : groups(s)) {
                const Value v = group_value(s, group, k);
                if (!v.legal) continue;
                r.legal = true;
                r.value = either(r.value, v.value);
                if (r.value == RetractorValue::Win) break;
            }
            return r;
        });
    }

    // Black's node `before` (White to move; k White retractions left after Black's): the
    // least value over Black's defences, the first refutation ending it; legality asked as in
    // white_value, where Black decides its uncaptures.
    Value black_value(const Setup& before, int k) {
        return memoized(black_values, before, k, [&] {
            Value r{RetractorValue::Win, false};
            if (singletons(before)) {
                r = choose(before, k, BLACK);
            } else {
                for (const std::vector<UnMove>& group : groups(before)) {
                    // Høeg: Black picks the shape, White the uncapture (White's best counts).
                    RetractorValue gv = RetractorValue::Fail;
                    bool any = false;
                    for (const UnMove& b : group) {
                        const std::optional<RetractorValue> v = black_step_value(before, b, k);
                        if (!v) continue;
                        any = true;
                        gv = either(gv, *v);
                        if (gv == RetractorValue::Win) break;
                    }
                    if (!any) continue;
                    r.legal = true;
                    r.value = both(r.value, gv);
                    if (r.value == RetractorValue::Fail) break;
                }
            }
            if (!r.legal) r.value = RetractorValue::Fail;
            return r;
        });
    }
};

std::string number_text(int k, Color side) {
    std::string t(1, '-');
    t += std::to_string(k);
    t += side == WHITE ? "." : "...";
    return t;
}

void collect_lines(const RetractorStep& step, int k, std::vector<std::string>& prefix,
                   std::vector<std::vector<std::string>>& out) {
    prefix.push_back(number_text(k, step.side) + step.text);
    if (step.side == WHITE && !step.forward.empty()) {
        std::string f = "&";
        for (size_t i = 0; i < step.forward.size(); ++i) f += (i ? " or " : " ") + step.forward[i];
        prefix.push_back(f);
        out.push_back(prefix);
        prefix.pop_back();
    } else if (step.next.empty()) {
        out.push_back(prefix);
    } else {
        for (const RetractorStep& n : step.next) collect_lines(n, step.side == WHITE ? k : k + 1, prefix, out);
    }
    prefix.pop_back();
}

std::string join(const std::vector<std::string>& words) {
    std::string out;
    for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
}

}  // namespace

std::string retractor_verdict(int key_choices, int unresolved_choices) {
    if (key_choices >= 2) return "multiple";
    if (unresolved_choices > 0) return "unresolved";
    return key_choices == 1 ? "unique" : "none";
}

std::string RetractorAnswer::verdict() const { return retractor_verdict(key_choices, unresolved_choices); }

const char* retractor_type_name(RetractorType type) {
    switch (type) {
        case RetractorType::Proca:
            return "Proca";
        case RetractorType::Hoeg:
            return "Hoeg";
        case RetractorType::Klan:
            return "Klan";
        case RetractorType::Pacific:
            return "Pacific";
    }
    return "Proca";
}

bool parse_retractor_stipulation(const std::string& text, int& n, RetractorAim& aim) {
    std::string s;
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c)))
            s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (s.size() < 4 || s[0] != '-') return false;
    size_t i = 1;
    n = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && n < 1000) n = n * 10 + (s[i++] - '0');
    if (i == 1 || n < 1 || n > 64 || i >= s.size() || s[i] != '&') return false;
    const std::string rest = s.substr(i + 1);
    if (rest == "#1")
        aim = RetractorAim::Mate;
    else if (rest == "s#1")
        aim = RetractorAim::SelfMate;
    else if (rest == "=1")
        aim = RetractorAim::Stalemate;
    else
        return false;
    return true;
}

std::string retractor_stipulation(int n, RetractorAim aim) {
    std::string t(1, '-');
    t += std::to_string(n);
    t += aim == RetractorAim::Mate ? " & #1" : aim == RetractorAim::SelfMate ? " & s#1" : " & =1";
    return t;
}

namespace {

// The diagram as the search starts from it: White moved last, no castling right or en
// passant claimed (retractions claim them as they need them).
Setup start_of(const Setup& diagram) {
    Setup s = diagram;
    s.side_to_move = BLACK;
    s.castling = 0;
    s.ep_square = SQ_NONE;
    return s;
}

void check_spec(const RetractorSpec& spec, const RuleSet* rules) {
    if (spec.retractions < 1) throw std::invalid_argument("a retractor retracts at least one move");
    if (effective_rules(rules) && !unmoves_supported(rules)) throw std::invalid_argument("no un-moves for these rules");
}

}  // namespace

std::vector<std::vector<UnMove>> retractor_first_choices(const Setup& diagram, const RetractorSpec& spec,
                                                         const RuleSet* rules) {
    check_spec(spec, rules);
    return Solver(spec, rules).groups(start_of(diagram));
}

RetractorAnswer solve_retractor_choices(const Setup& diagram, const RetractorSpec& spec, const RuleSet* rules,
                                        const std::vector<std::vector<UnMove>>& choices, int threads) {
    check_spec(spec, rules);
    const Setup s = start_of(diagram);
    std::vector<std::pair<RetractorValue, std::vector<RetractorStep>>> results(choices.size());
    std::vector<char> stopped(choices.size(), 0);
    std::optional<std::chrono::steady_clock::time_point> deadline;
    if (spec.max_seconds > 0)
        deadline = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                          std::chrono::duration<double>(spec.max_seconds));
    // One solver a thread, kept from one choice to the next: its tables (values, trees,
    // legality) are functions of the positions, so a choice's answer does not depend on which
    // choices the thread worked before (nor on the thread count), and positions the choices
    // share are worked once.
    tbb::enumerable_thread_specific<std::unique_ptr<Solver>> solvers;
    run_in_arena(threads, [&] {
        for_each_index(threads, choices.size(), [&](size_t i) {
            std::unique_ptr<Solver>& mine = solvers.local();
            if (!mine) {
                mine = std::make_unique<Solver>(spec, rules);
                mine->deadline = deadline;
            }
            Solver& solver = *mine;
            try {
                // The value first; a winning choice's tree then, a choice that does not win
                // listed by its legal members.
                std::vector<UnMove> kept;
                const Value v = solver.group_value(s, choices[i], spec.retractions, &kept);
                if (v.value == RetractorValue::Win) {
                    try {
                        results[i] = solver.white_group(s, choices[i], spec.retractions);
                    } catch (const RetractorTimeout&) {
                        // A key (its value is settled) whose lines the time limit cut: listed
                        // as a key, without them, and marked.
                        stopped[i] = 1;
                        results[i].first = RetractorValue::Win;
                        results[i].second.clear();
                        for (const UnMove& u : kept) {
                            RetractorStep st = step_of(WHITE, s, u, solver.rules);
                            st.value = RetractorValue::Win;
                            st.timed_out = true;
                            results[i].second.push_back(std::move(st));
                        }
                    }
                } else {
                    results[i].first = v.value;
                    for (const UnMove& u : kept) {
                        RetractorStep st = step_of(WHITE, s, u, solver.rules);
                        st.value = v.value;
                        results[i].second.push_back(std::move(st));
                    }
                }
            } catch (const RetractorTimeout&) {
                // Not settled: listed with its members, the reason in their text.
                stopped[i] = 1;
                results[i].first = RetractorValue::Unknown;
                for (const UnMove& u : choices[i]) {
                    RetractorStep st = step_of(WHITE, s, u, solver.rules);
                    st.value = RetractorValue::Unknown;
                    st.timed_out = true;
                    results[i].second.push_back(std::move(st));
                }
            }
        });
    });
    RetractorAnswer answer;
    answer.timed_out = std::find(stopped.begin(), stopped.end(), 1) != stopped.end();
    for (auto& [value, steps] : results) {
        if (steps.empty()) continue;  // no legal member
        if (value == RetractorValue::Win) {
            ++answer.key_choices;
            answer.keys.insert(answer.keys.end(), steps.begin(), steps.end());
        } else if (value == RetractorValue::Unknown) {
            ++answer.unresolved_choices;
            answer.unresolved.insert(answer.unresolved.end(), steps.begin(), steps.end());
        }
    }
    return answer;
}

namespace {

// render_retractor_step for steps taken back from `position` (their side the one not to move
// there), siblings in a tree: the position's un-moves are generated once for all of them.
void render_steps(const Setup& position, RetractorStep* steps, size_t count, const RetractorSpec& spec,
                  const RuleSet* rules) {
    if (count == 0) return;
    std::vector<UnMove> un;
    generate_unmoves(position, un, rules);
    SetupRules setup_rules;
    setup_rules.rules = rules;
    for (size_t i = 0; i < count; ++i) {
        RetractorStep& step = steps[i];
        if (step.side == position.side_to_move) throw std::invalid_argument("two retractions of one side in a row");
        if (std::find(un.begin(), un.end(), step.retraction) == un.end())
            throw std::invalid_argument("a retraction that is not one of the position's un-moves");
        step.text = janko_notation(position, step.retraction, rules);
        const Setup before = retract_keeping_rights(position, step.retraction);
        step.forward.clear();
        for (const Move& m : step.forward_moves) {
            Setup start = presumed_castling(before);
            if (m.kind == MoveKind::EnPassant) start.ep_square = m.to;
            Position pos;
            bool loaded = false;
            try {
                loaded = pos.load(start, setup_rules);
            } catch (const std::exception&) {
            }
            MoveList legal;
            if (loaded) generate_legal(pos, legal);
            if (std::find(legal.begin(), legal.end(), m) == legal.end())
                throw std::invalid_argument("a forward move that is not legal after its retraction");
            step.forward.push_back(forward_text(before, m, spec.aim, rules));
        }
        render_steps(before, step.next.data(), step.next.size(), spec, rules);
    }
}

}  // namespace

void render_retractor_step(const Setup& diagram, RetractorStep& step, const RetractorSpec& spec, const RuleSet* rules) {
    rules = effective_rules(rules);
    if (step.side != WHITE) throw std::invalid_argument("a first retraction of Black");
    render_steps(start_of(diagram), &step, 1, spec, rules);
}

RetractorAnswer solve_retractor(const Setup& diagram, const RetractorSpec& spec, const RuleSet* rules, int threads) {
    return solve_retractor_choices(diagram, spec, rules, retractor_first_choices(diagram, spec, rules), threads);
}

std::vector<std::vector<std::string>> retractor_lines(const RetractorStep& key) {
    std::vector<std::vector<std::string>> out;
    std::vector<std::string> prefix;
    collect_lines(key, 1, prefix, out);
    return out;
}

std::string retractor_key_text(const RetractorStep& key) {
    std::string out = number_text(1, WHITE) + key.text + " !\n";
    if (key.timed_out) return out + "  (lines not written: time limit)\n";
    for (std::vector<std::string>& line : retractor_lines(key)) {
        line.erase(line.begin());
        out += "  " + join(line) + "\n";
    }
    return out;
}

std::string retractor_unresolved_text(const RetractorStep& step) {
    return number_text(1, WHITE) + step.text +
           (step.timed_out
                ? " ?  (not settled: time limit)\n"
                : " ?  (not settled: an en passant capture needs a double step that is neither proved nor refuted)\n");
}

std::string retractor_text(const RetractorAnswer& answer) {
    std::string out;
    for (const RetractorStep& key : answer.keys) out += retractor_key_text(key);
    for (const RetractorStep& u : answer.unresolved) out += retractor_unresolved_text(u);
    return out + "verdict: " + answer.verdict() + "\n";
}

}  // namespace rebirth
