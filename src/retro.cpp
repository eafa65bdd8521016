#include "rebirth/retro.h"

#include "rebirth/bitboard.h"
#include "rebirth/legality.h"
#include "rebirth/position.h"
#include "rebirth/walk.h"

namespace rebirth {

namespace {

bool is_game_array(const Setup& s) {
    static const Setup start = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    return s.side_to_move == WHITE && same_units(s.board, start.board);
}

char letter(Walk w) { return walk_code(w, Language::English)[0] == 'S' ? 'N' : walk_code(w, Language::English)[0]; }

}  // namespace

bool may_be_legal(const Setup& s, int depth) {
    if (analyze_orthodox_legality(s.board, s.side_to_move).illegal) return false;
    if (depth == 0 || is_game_array(s)) return true;
    std::vector<UnMove> un;
    generate_unmoves(s, un);
    for (const UnMove& u : un)
        if (may_be_legal(retract(s, u), depth - 1)) return true;
    return false;
}

std::vector<UnMove> possible_last_moves(const Setup& position, int depth) {
    std::vector<UnMove> un, out;
    generate_unmoves(position, un);
    for (const UnMove& u : un)
        if (may_be_legal(retract(position, u), depth)) out.push_back(u);
    return out;
}

namespace {

// The retractions of `position` that its own history allows: after a retracted en passant
// capture (position.ep_square set) only the double step through that square; a king or rook
// that keeps a castling right in `position` never moved before it.
void history_unmoves(const Setup& position, std::vector<UnMove>& out) {
    generate_unmoves(position, out);
    std::erase_if(out, [&](const UnMove& u) {
        const Move& m = u.move;
        if (position.castling & square_bb(m.to)) return true;
        if (position.ep_square != SQ_NONE) {
            const bool double_step = position.board[m.to].walk == PAWN && (m.to - m.from == 16 || m.from - m.to == 16);
            if (!double_step || Square((m.from + m.to) / 2) != position.ep_square) return true;
        }
        return false;
    });
}

// The earlier position of u, with the castling rights `position` keeps for units u did not
// move added to those retract() claims.
Setup retract_keeping_rights(const Setup& position, const UnMove& u) {
    Setup s = retract(position, u);
    const Move& m = u.move;
    Bitboard moved = square_bb(m.from) | square_bb(m.to);
    if (m.kind == MoveKind::Castling) moved |= square_bb(make_square(file_of(m.to) == 6 ? 7 : 0, rank_of(m.to)));
    s.castling |= position.castling & ~moved;
    return s;
}

void last_moves_rec(const Setup& position, int n, int depth, std::vector<UnMove>& line,
                    std::vector<std::vector<UnMove>>& out) {
    if (n == 0) {
        out.push_back(line);
        return;
    }
    std::vector<UnMove> un;
    history_unmoves(position, un);
    for (const UnMove& u : un) {
        const Setup before = retract_keeping_rights(position, u);
        if (!may_be_legal(before, n == 1 ? depth : 0)) continue;
        line.push_back(u);
        last_moves_rec(before, n - 1, depth, line, out);
        line.pop_back();
    }
}

}  // namespace

std::vector<std::vector<UnMove>> possible_last_moves(const Setup& position, int n, int depth) {
    std::vector<std::vector<UnMove>> out;
    std::vector<UnMove> line;
    last_moves_rec(position, n, depth, line, out);
    return out;
}

std::string last_move_type(const Setup& position, const UnMove& u) {
    const Move& m = u.move;
    if (m.kind == MoveKind::Castling) return file_of(m.to) == 6 ? "O-O" : "O-O-O";
    if (m.kind == MoveKind::EnPassant) return "ep";
    const bool pawn = m.kind == MoveKind::Promotion || position.board[m.to].walk == PAWN;
    std::string t(1, pawn ? 'P' : letter(position.board[m.to].walk));
    if (u.uncaptured != NO_WALK) {
        t += 'x';
        t += letter(u.uncaptured);
    } else {
        t += '-';
        if (pawn && (m.to - m.from == 16 || m.from - m.to == 16)) t += '-';
    }
    if (m.kind == MoveKind::Promotion) {
        t += '=';
        t += letter(m.promotion);
    }
    return t;
}

std::string janko_notation(const Setup& position, const UnMove& u) {
    const Move& m = u.move;
    std::string t;
    if (m.kind == MoveKind::Castling) {
        t = file_of(m.to) == 6 ? "O-O" : "O-O-O";
    } else {
        const bool pawn = m.kind == MoveKind::Promotion || position.board[m.to].walk == PAWN;
        if (!pawn) t += letter(position.board[m.to].walk);
        t += square_name(m.from);
        if (u.uncaptured != NO_WALK) {
            t += 'x';
            if (m.kind != MoveKind::EnPassant) t += letter(u.uncaptured);  // Kb3xPc3, b4xc3ep
        } else {
            t += '-';
        }
        t += square_name(m.to);
        if (m.kind == MoveKind::Promotion) {
            t += '=';
            t += letter(m.promotion);
        }
        if (m.kind == MoveKind::EnPassant) t += "ep";
    }
    Position after;
    try {
        after.set(position);
        if (after.in_check()) t += '+';
    } catch (const std::exception&) {
    }
    return t;
}

}  // namespace rebirth
