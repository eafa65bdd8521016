#include "rebirth/goal.h"

#include "rebirth/movegen.h"

namespace rebirth {

Goal goal_from_text(std::string_view text) {
    if (text == "#") return Goal::Mate;
    if (text == "=") return Goal::Stalemate;
    if (text == "==") return Goal::DoubleStalemate;
    if (text == "x") return Goal::Capture;
    if (text == "+") return Goal::Check;
    if (text == "~") return Goal::Any;
    if (text == "ep") return Goal::EnPassant;
    if (text == "00") return Goal::Castling;
    if (text == "#=") return Goal::MateOrStalemate;
    if (text.size() == 3 && text[0] == 'z') {
        const Square s = parse_square(text.substr(1));
        if (s != SQ_NONE) return target_goal(s);
    }
    return Goal::Unsupported;
}

bool has_legal_move(const Position& pos) { return has_any_legal_move(pos); }

bool goal_reachable_in_one(const Position& pos, Goal g) {
    MoveList list;
    generate_legal(pos, list);
    Position scratch = pos;
    UndoInfo u;
    for (const Move& m : list) {
        scratch.do_move(m, u);
        const bool reached = goal_reached(scratch, u, g);
        scratch.undo_move(m, u);
        if (reached) return true;
    }
    return false;
}

bool only_checks_reach(const Position& pos, Goal g) {
    return (g == Goal::Mate || g == Goal::Check) && checks_foreseeable(pos);
}

bool goal_forced_in_one(const Position& pos, Goal g) {
    // A move that gives no check reaches no mate: where gives_check tells (without rules,
    // and under checks_foreseeable rules) such a move, the usual refutation, is found
    // without playing any (a king step first, before the other moves are generated).
    const bool checks_needed = only_checks_reach(pos, g);
    if (checks_needed && has_safe_king_step(pos, true)) return false;
    MoveList list;
    generate_legal(pos, list);
    if (list.empty()) return false;
    if (checks_needed)
        for (const Move& m : list)
            if (!gives_check(pos, m)) return false;
    Position scratch = pos;
    UndoInfo u;
    for (const Move& m : list) {
        scratch.do_move(m, u);
        const bool reached = goal_reached(scratch, u, g);
        scratch.undo_move(m, u);
        if (!reached) return false;
    }
    return true;
}

std::string_view goal_mark(Goal g) {
    if (is_target_goal(g)) return " z";
    switch (g) {
        case Goal::Mate:
            return " #";
        case Goal::Stalemate:
            return " =";
        case Goal::DoubleStalemate:
            return " ==";
        case Goal::Capture:
            return " x";
        case Goal::Check:
            return " +";
        case Goal::MateOrStalemate:
            return " #=";  // after a mate and after a stalemate alike (Popeye 4.104: "1.Qg1-g6 #=")
        case Goal::Any:
            return "";  // Popeye 4.104 writes none: "1.a7-a5 Rb2-b8 +" in an h~1
        default:
            return "";
    }
}

bool goal_mark_replaces_check(Goal g) {
    return g == Goal::Mate || g == Goal::Check || g == Goal::Stalemate || g == Goal::DoubleStalemate ||
           g == Goal::MateOrStalemate;
}

namespace {

// The square the unit that made u.move stands on once the move's effects are done: its arrival
// square (castling: the king's), or where an Anti-Circe rebirth took it; SQ_NONE when an
// effect took it off the board (Kamikaze, Assassin, burial).
Square eventual_square(const UndoInfo& u) {
    Square s = u.move.to;
    for (int i = 0; i < u.effect_count; ++i) {
        const Effect& e = u.effects[i];
        if (e.from != s) continue;
        switch (e.kind) {
            case Effect::Kind::Transfer:
                s = e.to;
                break;
            case Effect::Kind::Removal:
            case Effect::Kind::Burial:
            case Effect::Kind::Lift:
                return SQ_NONE;
            default:
                break;
        }
    }
    return s;
}

}  // namespace

bool goal_reached(const Position& after, const UndoInfo& u, Goal g) {
    if (is_target_goal(g)) return eventual_square(u) == goal_target(g);
    switch (g) {
        case Goal::Mate:
            return after.in_check() && !has_legal_move(after);
        case Goal::Stalemate:
            return !after.in_check() && !has_legal_move(after);
        case Goal::DoubleStalemate: {
            if (after.in_check() || has_legal_move(after)) return false;
            // The mover, were it to move, would be stalemated too.
            Position other = after;
            other.set_side_to_move_for_analysis(~after.side_to_move());
            return !other.in_check() && !has_legal_move(other);
        }
        case Goal::Capture:
            return u.capture_square != SQ_NONE;
        case Goal::Check:
            return after.in_check();
        case Goal::Any:
            return true;
        case Goal::EnPassant:
            return u.move.kind == MoveKind::EnPassant;
        case Goal::Castling:
            return u.move.kind == MoveKind::Castling;
        case Goal::MateOrStalemate:
            return !has_legal_move(after);
        default:
            return false;
    }
}

}  // namespace rebirth
