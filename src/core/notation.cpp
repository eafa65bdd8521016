#include "rebirth/notation.h"

#include "rebirth/rules.h"
#include "rebirth/text.h"
#include "rebirth/walk.h"

namespace rebirth {

namespace {

// Popeye's colour letter in rebirth brackets: English w/b, German w/s (schwarz), French b/n.
char colour_letter(Color c, Language lang) {
    switch (lang) {
        case Language::German:
            return c == WHITE ? 'w' : 's';
        case Language::French:
            return c == WHITE ? 'b' : 'n';
        default:
            return c == WHITE ? 'w' : 'b';
    }
}

std::string walk_letters(Walk w, Language lang) { return to_upper(walk_code(w, lang)); }

// Walk letters of a unit, with Popeye's `f` mark for a promoted unit under Frisch-auf Circe.
std::string unit_letters(Piece p, Walk w, Language lang, bool frischauf) {
    std::string s = frischauf && (p.flags & PF_PROMOTED) ? "f" : "";
    s += walk_letters(w, lang);
    return s;
}

// One effect in Popeye's bracket notation.
std::string effect_text(const Effect& e, Language lang, bool frischauf) {
    std::string s = "[";
    const char colour = colour_letter(e.piece.color, lang);
    const std::string unit = unit_letters(e.piece, e.piece.walk, lang, frischauf);
    switch (e.kind) {
        case Effect::Kind::Rebirth:
        case Effect::Kind::Eruption:
        case Effect::Kind::Landing:
            s += '+';
            s += colour;
            if (e.walk_before != NO_WALK)  // a pawn promoted on its rebirth: [+wPc8=S]
                s += walk_letters(e.walk_before, lang) + square_name(e.to) + "=" + walk_letters(e.piece.walk, lang);
            else
                s += unit + square_name(e.to);
            break;
        case Effect::Kind::Transfer:
            s += colour;
            if (e.walk_before == PAWN && e.piece.walk != PAWN)  // promoted on its rebirth: [wPa7->d8=Q]
                s += walk_letters(PAWN, lang) + square_name(e.from) + "->" + square_name(e.to) + "=" +
                     walk_letters(e.piece.walk, lang);
            else if (e.walk_before != NO_WALK && e.walk_before != e.piece.walk)  // Chameleon: [wSc5->Bc1]
                s += walk_letters(e.walk_before, lang) + square_name(e.from) + "->" + unit + square_name(e.to);
            else
                s += unit + square_name(e.from) + "->" + square_name(e.to);
            break;
        case Effect::Kind::Burial:
            if (e.from != SQ_NONE) {
                s += colour;
                s += unit + square_name(e.from) + "->" + square_name(e.to) + "->v";
            } else {
                s += '+';
                s += colour;
                s += unit + square_name(e.to) + "->v";
            }
            break;
        case Effect::Kind::Removal:
        case Effect::Kind::Lift:
            s += '-';
            s += colour;
            s += unit + square_name(e.from);
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
        // A Mars Circe king castles from its rebirth square: Popeye writes the lift first
        // ("[wKc1->e1]0-0").
        const Square home = make_square(4, rank_of(m.to));
        if (rules && rules->mars && m.from != home) {
            const Piece king = pos.piece_on(m.from);
            s = std::string("[") + (king.color == WHITE ? 'w' : 'b') + unit_letters(king, KING, lang, false) +
                square_name(m.from) + "->" + square_name(home) + "]" + s;
        }
    } else {
        Piece mover = pos.piece_on(m.from);
        if (mover.walk != PAWN) s += unit_letters(mover, mover.walk, lang, rules && rules->frischauf);
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
        if (!u.effects[i].silent) brackets += effect_text(u.effects[i], lang, rules && rules->frischauf);
    // Anti-Mars castling writes the units brought home before the castling sign.
    s = m.kind == MoveKind::Castling ? brackets + s : s + brackets;
    if (with_check && after.in_check()) s += " +";
    return s;
}

}  // namespace rebirth
