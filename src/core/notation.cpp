#include "rebirth/notation.h"

#include "rebirth/movegen.h"

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
    // Turncoats: the unit is written with its side before the change, then "=" and the new
    // side ([+bRh8=w], [+bPb1=Q=w], [wKd2->e1=b]).
    const char colour = colour_letter(e.turned ? ~e.piece.color : e.piece.color, lang);
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
                if (e.walk_before != NO_WALK)  // promoted on its rebirth, then buried: [+wPc8=Q->v]
                    s += walk_letters(e.walk_before, lang) + square_name(e.to) + "=" + walk_letters(e.piece.walk, lang);
                else
                    s += unit + square_name(e.to);
                s += "->v";
            }
            break;
        case Effect::Kind::Removal:
        case Effect::Kind::Lift:
            s += '-';
            s += colour;
            s += unit + square_name(e.from);
            break;
    }
    if (e.turned) s.append("=").push_back(colour_letter(e.piece.color, lang));
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

namespace rebirth {

std::string move_to_san(const Position& pos, const Move& m) {
    const Piece mover = pos.piece_on(m.from);
    if (mover.walk > PAWN) return move_to_popeye(pos, m);  // no SAN letter for fairy walks
    std::string s;
    if (m.kind == MoveKind::Castling) {
        s = file_of(m.to) > file_of(m.from) ? "O-O" : "O-O-O";
    } else {
        const bool takes = m.kind == MoveKind::EnPassant || !pos.piece_on(m.to).empty();
        if (mover.walk == PAWN) {
            if (takes) s += char('a' + file_of(m.from));
        } else {
            s += "KQRBN"[mover.walk - KING];
            // Disambiguation: another unit of the same walk and colour that can go there too.
            MoveList list;
            generate_legal(pos, list);
            bool other = false, same_file = false, same_rank = false;
            for (const Move& o : list) {
                if (o.to != m.to || o.from == m.from || o.kind == MoveKind::Castling) continue;
                const Piece p = pos.piece_on(o.from);
                if (p.walk != mover.walk || p.color != mover.color) continue;
                other = true;
                same_file = same_file || file_of(o.from) == file_of(m.from);
                same_rank = same_rank || rank_of(o.from) == rank_of(m.from);
            }
            if (other) {
                if (!same_file)
                    s += char('a' + file_of(m.from));
                else if (!same_rank)
                    s += char('1' + rank_of(m.from));
                else
                    s += square_name(m.from);
            }
        }
        if (takes) s += 'x';
        s += square_name(m.to);
        if (m.kind == MoveKind::Promotion && m.promotion >= QUEEN && m.promotion <= KNIGHT) {
            s += '=';
            s += "KQRBN"[m.promotion - KING];
        }
    }
    Position after = pos;
    UndoInfo u;
    after.do_move(m, u);
    if (after.in_check()) {
        MoveList replies;
        generate_legal(after, replies);
        s += replies.size() == 0 ? '#' : '+';
    }
    return s;
}

}  // namespace rebirth
