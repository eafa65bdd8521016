#include "rebirth/notation.h"

#include <cctype>

#include "rebirth/walk.h"

namespace rebirth {

std::string move_to_popeye(const Position& pos, const Move& m, bool with_check, Language lang) {
    std::string s;
    if (m.kind == MoveKind::Castling) {
        s = m.to > m.from ? "0-0" : "0-0-0";
    } else {
        Piece mover = pos.piece_on(m.from);
        if (mover.walk != PAWN) {
            std::string_view code = walk_code(mover.walk, lang);
            for (char c : code) s += char(std::toupper(static_cast<unsigned char>(c)));
        }
        bool capture = m.kind == MoveKind::EnPassant || !pos.empty(m.to);
        s += square_name(m.from);
        s += capture ? '*' : '-';
        s += square_name(m.to);
        if (m.kind == MoveKind::Promotion) {
            s += '=';
            std::string_view code = walk_code(m.promotion, lang);
            for (char c : code) s += char(std::toupper(static_cast<unsigned char>(c)));
        }
        if (m.kind == MoveKind::EnPassant) s += " ep.";
    }
    if (with_check) {
        Position after = pos;
        UndoInfo u;
        after.do_move(m, u);
        if (after.in_check()) s += " +";
    }
    return s;
}

}  // namespace rebirth
