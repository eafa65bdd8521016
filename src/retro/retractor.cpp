#include "rebirth/retractor.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>

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
// the opponent, or (s#1) leave the opponent moves that all mate.
std::vector<Move> aim_moves(const Position& pos, RetractorAim aim) {
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
        if (reached) out.push_back(m);
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
};

// The choices of one side in a position, for White: the value (some choice wins) and
// the winning choices; for Black: the value (every defence loses) and the defences with
// White's winning answers. `legal` false: the side has no legal retraction (the position
// is illegal, and so the retraction that led to it).
struct Node {
    RetractorValue value = RetractorValue::Fail;
    std::vector<RetractorStep> steps;
    bool legal = true;
};

// What one White retraction (or Black's, for the forward defence) leads to, and the whole
// tree below it.
struct Solver {
    const RetractorSpec& spec;
    const RuleSet* rules;
    SetupRules setup_rules;
    std::map<std::string, Node> white_memo, black_memo;
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
    std::vector<UnMove> legal_retractions(const Setup& s) const {
        std::vector<UnMove> all, out;
        generate_unmoves(s, all, rules);
        for (const UnMove& u : all)
            if (fits_history(s, u, rules) && may_be_legal(retract_keeping_rights(s, u), spec.depth, rules))
                out.push_back(u);
        return out;
    }

    // Whether the side to move in s reaches the aim with one forward move: castling as the
    // Codex presumes it, en passant only where s proves it or the last move is proved to be
    // the double step (else a capture that would reach the aim leaves the answer unknown).
    Forward forward_aim(const Setup& s) const {
        Forward f;
        const Setup start = presumed_castling(s);
        Position pos;
        try {
            if (!pos.load(start, setup_rules)) return f;
        } catch (const std::exception&) {
            return f;  // a position the rules do not load (not reached by legal play)
        }
        const std::string mark(aim_mark(spec.aim));
        for (const Move& m : aim_moves(pos, spec.aim))
            f.moves.push_back("1." + forward_notation(start, m, rules) + mark);
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
            for (const Move& m : aim_moves(ep_pos, spec.aim))
                if (m.kind == MoveKind::EnPassant) moves.push_back("1." + forward_notation(with_ep, m, rules) + mark);
            if (moves.empty()) continue;
            if (!last) last = possible_last_moves(s, spec.depth, rules);
            const auto is_double_step = [&](const UnMove& u) {
                return u.move.from == origin && u.move.to == p && u.move.kind == MoveKind::Normal &&
                       u.uncaptured == NO_WALK;
            };
            if (!last->empty() && std::all_of(last->begin(), last->end(), is_double_step)) {
                f.moves.insert(f.moves.end(), moves.begin(), moves.end());
            } else if (std::any_of(last->begin(), last->end(), is_double_step)) {
                unknown = true;
            }
        }
        f.value = !f.moves.empty() ? RetractorValue::Win : unknown ? RetractorValue::Unknown : RetractorValue::Fail;
        return f;
    }

    // The retractions of s grouped as their chooser decides them: one a group where the
    // retracting side decides its uncaptures (Proca, Pacific, White's under Klan); else one
    // group per shape (its members: the opponent's choices of what was uncaptured). Pacific
    // has no uncaptures.
    std::vector<std::vector<UnMove>> groups(const Setup& s) const {
        std::vector<std::vector<UnMove>> out;
        std::vector<UnMove> legal = legal_retractions(s);
        if (spec.type == RetractorType::Pacific)
            legal.erase(std::remove_if(legal.begin(), legal.end(),
                                       [](const UnMove& u) {
                                           return u.uncaptured != NO_WALK || !u.resurrected.empty() || u.capturer_lost;
                                       }),
                        legal.end());
        const Color retracting = ~s.side_to_move;
        if (spec.type == RetractorType::Proca || spec.type == RetractorType::Pacific ||
            (spec.type == RetractorType::Klan && retracting == WHITE)) {
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

    // The node of `memo` for s with k retractions left, worked out by work() the first time.
    template <class Work>
    Node memoized(std::map<std::string, Node>& memo, const Setup& s, int k, Work&& work) {
        tick();
        const std::string key = to_fen(s) + " " + std::to_string(k);
        if (const auto it = memo.find(key); it != memo.end()) return it->second;
        Node result = work();
        memo.emplace(key, result);
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
                auto [value, steps] = white_group(s, group, k);
                if (steps.empty()) continue;  // no legal choice in the group
                result.legal = true;
                result.value = either(result.value, value);
                if (value == RetractorValue::Win)
                    for (RetractorStep& st : steps) result.steps.push_back(std::move(st));
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
    run_in_arena(threads, [&] {
        for_each_index(threads, choices.size(), [&](size_t i) {
            Solver solver(spec, rules);
            solver.deadline = deadline;
            try {
                results[i] = solver.white_group(s, choices[i], spec.retractions);
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
