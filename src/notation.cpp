#include "rebirth/notation.h"

#include "rebirth/rules.h"
#include "rebirth/text.h"
#include "rebirth/walk.h"

namespace rebirth {

namespace {

char colour_letter(Color c) { return c == WHITE ? 'w' : 'b'; }

std::string walk_letters(Walk w, Language lang) { return to_upper(walk_code(w, lang)); }

// One effect in Popeye's bracket notation.
std::string effect_text(const Effect& e, Language lang) {
    std::string s = "[";
    switch (e.kind) {
        case Effect::Kind::Rebirth:
        case Effect::Kind::Eruption:
        case Effect::Kind::Landing:
            s += '+';
            s += colour_letter(e.piece.color);
            if (e.walk_before != NO_WALK) {
                s += walk_letters(e.walk_before, lang) + square_name(e.to) + "=" + walk_letters(e.piece.walk, lang);
            } else {
                s += walk_letters(e.piece.walk, lang) + square_name(e.to);
            }
            break;
        case Effect::Kind::Transfer:
            // A walk change (Anti-Circe Chameleon) writes the new walk after the arrow.
            s += colour_letter(e.piece.color);
            if (e.walk_before != NO_WALK && e.walk_before != e.piece.walk)
                s += walk_letters(e.walk_before, lang) + square_name(e.from) + "->" + walk_letters(e.piece.walk, lang) +
                     square_name(e.to);
            else
                s += walk_letters(e.piece.walk, lang) + square_name(e.from) + "->" + square_name(e.to);
            break;
        case Effect::Kind::Burial:
            if (e.from != SQ_NONE) {
                s += colour_letter(e.piece.color);
                s += walk_letters(e.piece.walk, lang) + square_name(e.from) + "->" + square_name(e.to) + "->v";
            } else {
                s += '+';
                s += colour_letter(e.piece.color);
                s += walk_letters(e.piece.walk, lang) + square_name(e.to) + "->v";
            }
            break;
        case Effect::Kind::Removal:
        case Effect::Kind::Lift:
            s += '-';
            s += colour_letter(e.piece.color);
            s += walk_letters(e.piece.walk, lang) + square_name(e.from);
            break;
    }
    return s + "]";
}


}  // namespace

std::string move_to_popeye(const Position& pos, const Move& m, bool with_check, Language lang) {
    std::string s;
    const RuleSet* rules = pos.has_rules() ? pos.rules() : nullptr;
    if (m.kind == MoveKind::Castling) {
        s = file_of(m.to) == 6 ? "0-0" : "0-0-0";
    } else {
        Piece mover = pos.piece_on(m.from);
        if (mover.walk != PAWN) s += walk_letters(mover.walk, lang);
        const bool capture = m.kind == MoveKind::EnPassant || (m.to != m.from && !pos.empty(m.to));
        s += square_name(m.from);
        if (rules && (rules->mars || rules->antimars) && m.extra != SQ_NONE) s.append("-").append(square_name(m.extra));
        s += capture ? '*' : '-';
        s += square_name(m.to);
        if (m.kind == MoveKind::Promotion) s.append("=").append(walk_letters(m.promotion, lang));
        if (m.kind == MoveKind::EnPassant) s += " ep.";
    }
    if (!rules && !with_check) return s;
    Position after = pos;
    UndoInfo u;
    after.do_move(m, u);
    std::string brackets;
    for (int i = 0; i < u.effect_count; ++i)
        if (!u.effects[i].silent) brackets += effect_text(u.effects[i], lang);
    // Anti-Mars castling writes the units brought home before the castling sign.
    s = m.kind == MoveKind::Castling ? brackets + s : s + brackets;
    if (with_check && after.in_check()) s += " +";
    return s;
}

}  // namespace rebirth
