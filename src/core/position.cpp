#include "rebirth/position.h"

#include <bit>
#include <sstream>
#include <stdexcept>

#include "core/walk_attacks.h"
#include "rebirth/error.h"
#include "rebirth/rules.h"
#include "rebirth/walk.h"

namespace rebirth {

namespace {

struct ZobristTables {
    Key piece[COLOR_NB][WALK_NB][SQUARE_NB];
    Key flag[8][SQUARE_NB];
    Key castling[SQUARE_NB];
    Key ep[SQUARE_NB];
    Key side;
    Key buried[COLOR_NB][WALK_NB][SQUARE_NB];
    Key parrain[COLOR_NB][WALK_NB][SQUARE_NB];
    Key origin[SQUARE_NB][SQUARE_NB];

    ZobristTables() {
        std::uint64_t s = 0x2545F4914F6CDD1DULL;
        auto next = [&s]() {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            return s * 2685821657736338717ULL;
        };
        for (auto& c : piece)
            for (auto& w : c)
                for (auto& k : w) k = next();
        for (auto& f : flag)
            for (auto& k : f) k = next();
        for (auto& k : castling) k = next();
        for (auto& k : ep) k = next();
        side = next();
        for (auto& c : buried)
            for (auto& w : c)
                for (auto& k : w) k = next();
        for (auto& c : parrain)
            for (auto& w : c)
                for (auto& k : w) k = next();
        for (auto& o : origin)
            for (auto& k : o) k = next();
    }
};

const ZobristTables& tables() {
    static const ZobristTables t;
    return t;
}

constexpr Bitboard kCastlingSquares =
    square_bb(SQ_E1) | square_bb(SQ_A1) | square_bb(SQ_H1) | square_bb(SQ_E8) | square_bb(SQ_A8) | square_bb(SQ_H8);

// Whether a capture under `r` may bury or lift a unit (Circe or Anti-Circe Volcanic, Parachute).
bool buries(const RuleSet& r) {
    auto burying = [](Occupied o) { return o == Occupied::Volcanic || o == Occupied::Parachute; };
    return burying(r.occupied) || (r.reborn == Reborn::Both && burying(r.both_capturer.occupied));
}

}  // namespace

namespace zobrist {
Key piece_key(Piece p, Square s) {
    const ZobristTables& t = tables();
    Key k = t.piece[p.color][p.walk][s];
    for (unsigned f = p.flags; f; f &= f - 1) k ^= t.flag[std::countr_zero(f)][s];
    return k;
}
Key castling_key(Square s) { return tables().castling[s]; }
Key ep_key(Square s) { return tables().ep[s]; }
Key side_key() { return tables().side; }
Key buried_key(Piece p, Square s) { return tables().buried[p.color][p.walk][s] ^ (p.flags ? tables().flag[7][s] : 0); }
Key parrain_key(Piece p, Square s) { return tables().parrain[p.color][p.walk][s]; }
Key origin_key(Square origin, Square s) { return tables().origin[origin][s]; }
}  // namespace zobrist

Position::Position() {
    init_bitboards();
    tables();
}

Position::Position(const Setup& setup, const SetupRules& rules, const std::string& source) : Position() {
    set(setup, rules, source);
}

void Position::clear() {
    board_.fill(Piece{});
    by_color_.fill(0);
    by_walk_.fill(0);
    king_sq_ = {SQ_NONE, SQ_NONE};
    promo_walks_.fill(NO_WALK);
    promo_count_ = 0;
    side_ = WHITE;
    castling_ = 0;
    ep_square_ = SQ_NONE;
    key_ = 0;
    ply_ = 0;
    halfmove_clock_ = 0;
    fullmove_start_ = 1;
    fairy_ = false;
    circe_ = false;
    first_rank_pawns_attack_ = false;
    rules_ = nullptr;
    origin_.fill(SQ_NONE);
    buried_count_ = 0;
    parrain_piece_ = Piece{};
    parrain_square_ = SQ_NONE;
}

void Position::put_piece(Piece p, Square s) {
    board_[s] = p;
    by_color_[p.color] |= square_bb(s);
    by_walk_[p.walk] |= square_bb(s);
    if (p.walk == KING) king_sq_[p.color] = s;
}

void Position::remove_piece(Square s) {
    Piece p = board_[s];
    by_color_[p.color] &= ~square_bb(s);
    by_walk_[p.walk] &= ~square_bb(s);
    board_[s] = Piece{};
    if (p.walk == KING && king_sq_[p.color] == s) king_sq_[p.color] = SQ_NONE;
}

void Position::move_piece(Square from, Square to) {
    Piece p = board_[from];
    Bitboard ft = square_bb(from) | square_bb(to);
    by_color_[p.color] ^= ft;
    by_walk_[p.walk] ^= ft;
    board_[to] = p;
    board_[from] = Piece{};
    if (p.walk == KING && king_sq_[p.color] == from) king_sq_[p.color] = to;
}

void Position::set(const Setup& setup, const SetupRules& rules, const std::string& source) {
    if (load(setup, rules, source)) return;
    const char* names[COLOR_NB] = {"white", "black"};
    throw InputError(source, 0, names[~side_],
                     circe_ ? "illegal position: the side to play can capture the king of"
                            : "illegal position: the side not to move is in check:");
}

bool Position::load(const Setup& setup, const SetupRules& rules, const std::string& source) {
    clear();
    int kings[COLOR_NB] = {0, 0};
    int buried_kings[COLOR_NB] = {0, 0};
    // The same checks for the units on the board and those below it.
    auto check_unit = [&](Piece p, Square s) {
        if (p.walk >= walk_count() || p.color > BLACK)
            throw InputError(source, 0, square_name(s), "invalid unit on square");
        if (p.flags & PF_KAMIKAZE)
            throw InputError(source, 0, square_name(s), "the Kamikaze attribute is not supported yet; unit on");
        if ((p.flags & PF_ROYAL) && p.walk != KING)
            throw InputError(source, 0, square_name(s), "royal units other than kings are not supported yet; unit on");
    };
    for (int si = 0; si < SQUARE_NB; ++si) {
        Square s = Square(si);
        Piece p = setup.board[s];
        if (p.empty()) continue;
        check_unit(p, s);
        if (p.walk == KING) ++kings[p.color];
        put_piece(p, s);
        origin_[s] = s;
    }
    rules_ = rules.rules;
    circe_ = rules_ && !rules_->orthodox();
    first_rank_pawns_attack_ = rules_ && first_rank_pawns_move(*rules_);
    for (const auto& [sq, unit] : setup.underworld) {
        if (!circe_ || (rules_->occupied != Occupied::Volcanic && rules_->occupied != Occupied::Parachute))
            throw InputError(source, 0, square_name(sq),
                             "two units on one square need Circe Volcanic or Parachute; square");
        if (buried_count_ >= MAX_BURIED) throw InputError(source, 0, square_name(sq), "too many buried units at");
        check_unit(unit, sq);
        buried_[buried_count_++] = Buried{sq, unit};
        // A king below the board erupts or lands as a second king of its colour.
        if (unit.walk == KING) ++buried_kings[unit.color];
    }
    // Volcanic and Parachute may bury or lift every unit in turn: refuse more units than the
    // buried list holds, so that no move can overflow it.
    if (circe_ && buries(*rules_) && popcount(pieces()) + buried_count_ > MAX_BURIED)
        throw InputError(source, 0, std::to_string(popcount(pieces()) + buried_count_),
                         "Circe Volcanic/Parachute: rebirth handles at most " + std::to_string(MAX_BURIED) +
                             " units, the diagram has");
    if (circe_ && setup.parrain_square != SQ_NONE &&
        (rules_->square == SquareRule::Parrain || rules_->square == SquareRule::ContraParrain ||
         rules_->wait_capture)) {
        if (setup.parrain_piece.empty())
            throw InputError(source, 0, square_name(setup.parrain_square),
                             "no unit waits for its rebirth (Parrain, WaitCapture) on");
        check_unit(setup.parrain_piece, setup.parrain_square);
        parrain_piece_ = setup.parrain_piece;
        parrain_square_ = setup.parrain_square;
    } else if (circe_ && rules_->last_capture_square != SQ_NONE) {
        parrain_piece_ = rules_->last_capture_piece;
        parrain_square_ = rules_->last_capture_square;
    }
    const char* names[COLOR_NB] = {"white", "black"};
    for (Color c : {WHITE, BLACK}) {
        if (kings[c] + buried_kings[c] > 1)
            throw InputError(source, 0, std::string(names[c]) + " king",
                             "more than one " + std::string(names[c]) + " king in the position:");
        bool required = c == WHITE ? rules.require_white_king : rules.require_black_king;
        if (kings[c] == 0 && required)
            throw InputError(
                source, 0, std::string(names[c]) + " king",
                std::string("missing ") + names[c] + " king (declare a kingless problem with Option NoWk / NoBk):");
    }
    // Turncoats with kings taking part: a king reborn as a unit of the other side (Popeye 4.104
    // plays 1.Ke1*d2[wKd2->e1=b] under AntiCirce Turncoats and leaves White without a king)
    // cannot be represented; kingless problems are fine.
    if (circe_ && rules_->turncoat && rules_->rex == Rex::Inclusive && kings[WHITE] + kings[BLACK] > 0)
        throw InputError(source, 0, "Turncoats",
                         "kings that may be reborn and change side (RexInclusive, AntiCirce's default) are not "
                         "supported yet; add RexExclusive or declare a kingless problem:");
    // Promotion walks: Q R B S, then every fairy walk present in the diagram.
    for (Walk w : {QUEEN, ROOK, BISHOP, KNIGHT}) promo_walks_[promo_count_++] = w;
    for (int w = PAWN + 1; w < walk_count() && w < WALK_NB; ++w)
        if (by_walk_[w]) {
            promo_walks_[promo_count_++] = Walk(w);
            fairy_ = true;
        }

    side_ = setup.side_to_move;
    // Castling rights: each listed square must hold its king or rook.
    Bitboard rights = setup.castling;
    if (rights & ~kCastlingSquares)
        throw InputError(source, 0, square_name(lsb(rights & ~kCastlingSquares)),
                         "castling right on a square that is not a king or rook home square:");
    for (Bitboard b = rights; b;) {
        Square s = pop_lsb(b);
        Color c = rank_of(s) == 0 ? WHITE : BLACK;
        Walk need = file_of(s) == 4 ? KING : ROOK;
        Piece p = board_[s];
        if (p.walk != need || p.color != c)
            throw InputError(
                source, 0, square_name(s),
                std::string("castling right but no ") + names[c] + (need == KING ? " king" : " rook") + " on");
    }
    castling_ = rights;

    if (setup.ep_square != SQ_NONE) {
        Square ep = setup.ep_square;
        int want_rank = side_ == WHITE ? 5 : 2;
        Square pawn_sq = side_ == WHITE ? Square(ep - 8) : Square(ep + 8);
        Square origin = side_ == WHITE ? Square(ep + 8) : Square(ep - 8);
        Piece pawn = is_ok(pawn_sq) ? board_[pawn_sq] : Piece{};
        if (rank_of(ep) != want_rank || pawn.walk != PAWN || pawn.color == side_ || !board_[ep].empty() ||
            !board_[origin].empty())
            throw InputError(source, 0, square_name(ep), "en passant square does not follow a pawn double step:");
        ep_square_ = ep;
    }
    halfmove_clock_ = setup.halfmove_clock;
    fullmove_start_ = setup.fullmove_number;
    key_ = compute_key();
    return !in_check(~side_);
}

Setup Position::to_setup() const {
    Setup s;
    s.board = board_;
    s.side_to_move = side_;
    s.castling = castling_;
    s.ep_square = ep_square_;
    s.halfmove_clock = halfmove_clock_;
    for (int i = 0; i < buried_count_; ++i) s.underworld.emplace_back(buried_[i].square, buried_[i].piece);
    s.parrain_square = parrain_square_;
    s.parrain_piece = parrain_piece_;
    s.fullmove_number = fullmove_start_ + (ply_ + (fullmove_start_ ? 0 : 0)) / 2;
    return s;
}

Key Position::compute_key() const {
    Key k = 0;
    for (Bitboard b = pieces(); b;) {
        const Square s = pop_lsb(b);
        k ^= zobrist::piece_key(board_[s], s);
    }
    for (Bitboard b = castling_; b;) k ^= zobrist::castling_key(pop_lsb(b));
    if (ep_square_ != SQ_NONE) k ^= zobrist::ep_key(ep_square_);
    if (side_ == BLACK) k ^= zobrist::side_key();
    for (int i = 0; i < buried_count_; ++i) k ^= zobrist::buried_key(buried_[i].piece, buried_[i].square);
    if (parrain_square_ != SQ_NONE) k ^= zobrist::parrain_key(parrain_piece_, parrain_square_);
    if (circe_ && rules_->square == SquareRule::Diagram)
        for (int si = 0; si < SQUARE_NB; ++si)
            if (!board_[si].empty() && origin_[si] != SQ_NONE) k ^= zobrist::origin_key(origin_[si], Square(si));
    return k;
}

unsigned Position::castling_sides(Color c) const {
    const int r = c == WHITE ? 0 : 7;
    if (!(castling_ & square_bb(make_square(4, r)))) return 0;
    return ((castling_ & square_bb(make_square(0, r))) ? 1u : 0u) |
           ((castling_ & square_bb(make_square(7, r))) ? 2u : 0u);
}

Bitboard Position::attackers_to(Square s, Color by) const { return attackers_to(s, by, pieces()); }

Bitboard Position::attackers_to(Square s, Color by, Bitboard occ) const {
    Bitboard them = by_color_[by];
    // A pawn on its own first rank gives no check (RULES.md section 2), except under rules
    // where it moves from there (Cage, Parrain: Popeye 4.104 lets it capture, so it checks).
    Bitboard pawns = by_walk_[PAWN] & ~(first_rank_pawns_attack_ ? 0 : rank_bb(by == WHITE ? 0 : 7));
    Bitboard att = (pawn_attacks(~by, s) & pawns) | (knight_attacks(s) & by_walk_[KNIGHT]) |
                   (king_attacks(s) & by_walk_[KING]) | (rook_attacks(s, occ) & (by_walk_[ROOK] | by_walk_[QUEEN])) |
                   (bishop_attacks(s, occ) & (by_walk_[BISHOP] | by_walk_[QUEEN]));
    att &= them;
    if (fairy_) {
        for (int w = PAWN + 1; w < walk_count() && w < WALK_NB; ++w)
            for (Bitboard b = by_walk_[w] & them & occ; b;) {
                Square from = pop_lsb(b);
                if (walk_attacks_square(Walk(w), from, s, occ)) att |= square_bb(from);
            }
    }
    return att;
}

Bitboard Position::pinned(Color c) const {
    const Square k = king_sq_[c];
    if (k == SQ_NONE) return 0;
    Bitboard snipers = ((rook_attacks(k, 0) & (by_walk_[ROOK] | by_walk_[QUEEN])) |
                        (bishop_attacks(k, 0) & (by_walk_[BISHOP] | by_walk_[QUEEN]))) &
                       by_color_[~c];
    Bitboard result = 0;
    while (snipers) {
        const Bitboard b = between_bb(k, pop_lsb(snipers)) & pieces();
        if (b && !more_than_one(b) && (b & by_color_[c])) result |= b;
    }
    return result;
}

bool Position::in_check(Color c) const {
    Square k = king_sq_[c];
    if (k == SQ_NONE) return false;
    if (circe_) return rules_in_check(c);
    return attackers_to(k, ~c) != 0;
}

void Position::do_move(const Move& m, UndoInfo& u) {
    u.move = m;
    if (circe_) {
        if (!do_rules_move(m, u)) throw std::logic_error("do_move: move forbidden by the rules");
        return;
    }
    u.key = key_;
    u.castling = castling_;
    u.ep_square = ep_square_;
    u.halfmove_clock = halfmove_clock_;
    Piece mover = board_[m.from];
    u.moved = mover;
    Color us = side_;
    Key k = key_ ^ zobrist::side_key();
    if (ep_square_ != SQ_NONE) k ^= zobrist::ep_key(ep_square_);
    ep_square_ = SQ_NONE;

    Square cap_sq = capture_square(m, us);
    if (m.kind == MoveKind::Castling) {
        u.captured = Piece{};
        u.capture_square = SQ_NONE;
    } else {
        u.captured = board_[cap_sq];
        u.capture_square = u.captured.empty() ? SQ_NONE : cap_sq;
    }

    if (m.kind == MoveKind::Castling) {
        bool king_side = m.to > m.from;
        Square rook_from = make_square(king_side ? 7 : 0, rank_of(m.from));
        Square rook_to = make_square(king_side ? 5 : 3, rank_of(m.from));
        Piece rook = board_[rook_from];
        k ^= zobrist::piece_key(mover, m.from) ^ zobrist::piece_key(mover, m.to);
        k ^= zobrist::piece_key(rook, rook_from) ^ zobrist::piece_key(rook, rook_to);
        remove_piece(rook_from);
        move_piece(m.from, m.to);
        put_piece(rook, rook_to);
    } else {
        if (!u.captured.empty()) {
            k ^= zobrist::piece_key(u.captured, cap_sq);
            remove_piece(cap_sq);
        }
        k ^= zobrist::piece_key(mover, m.from);
        move_piece(m.from, m.to);
        if (m.kind == MoveKind::Promotion) {
            Piece promoted = make_piece(us, m.promotion, std::uint8_t(mover.flags | PF_PROMOTED));
            remove_piece(m.to);
            put_piece(promoted, m.to);
            k ^= zobrist::piece_key(promoted, m.to);
        } else {
            k ^= zobrist::piece_key(mover, m.to);
        }
        if (mover.walk == PAWN && (m.to - m.from == 16 || m.from - m.to == 16)) {
            Square ep = Square((m.from + m.to) / 2);
            if (pawn_attacks(us, ep) & pieces(~us, PAWN)) {
                ep_square_ = ep;
                k ^= zobrist::ep_key(ep);
            }
        }
    }
    const Bitboard touched = touched_squares(m) | square_bb(cap_sq);
    Bitboard lost = castling_ & touched;
    if (m.kind == MoveKind::Castling && rules_) lost |= castling_ & rules_->castling_cancels(us, m.to > m.from);
    if (lost) {
        castling_ &= ~lost;
        for (Bitboard b = lost; b;) k ^= zobrist::castling_key(pop_lsb(b));
    }
    halfmove_clock_ = (mover.walk == PAWN || !u.captured.empty()) ? 0 : halfmove_clock_ + 1;
    side_ = ~us;
    ++ply_;
    key_ = k;
#ifdef REBIRTH_CHECKED
    std::string why;
    if (!is_consistent(&why)) throw std::logic_error("do_move: " + why);
#endif
}

void Position::undo_move(const Move& m, const UndoInfo& u) {
    if (circe_) {
        undo_rules_move(m, u);
        return;
    }
    side_ = ~side_;
    --ply_;
    if (m.kind == MoveKind::Castling) {
        bool king_side = m.to > m.from;
        Square rook_from = make_square(king_side ? 7 : 0, rank_of(m.from));
        Square rook_to = make_square(king_side ? 5 : 3, rank_of(m.from));
        Piece rook = board_[rook_to];
        remove_piece(rook_to);
        move_piece(m.to, m.from);
        put_piece(rook, rook_from);
    } else {
        if (m.kind == MoveKind::Promotion) {
            remove_piece(m.to);
            put_piece(u.moved, m.from);
        } else {
            move_piece(m.to, m.from);
        }
        if (!u.captured.empty()) put_piece(u.captured, u.capture_square);
    }
    restore_state(u, "undo_move");
}

void Position::restore_state(const UndoInfo& u, const char* caller) {
    castling_ = u.castling;
    ep_square_ = u.ep_square;
    halfmove_clock_ = u.halfmove_clock;
    key_ = u.key;
#ifdef REBIRTH_CHECKED
    std::string why;
    if (!is_consistent(&why)) throw std::logic_error(std::string(caller) + ": " + why);
#else
    (void)caller;
#endif
}

std::string Position::exact_key() const {
    std::string k;
    k.reserve(96);
    exact_key(k);
    return k;
}

void Position::exact_key(std::string& k) const {
    k.clear();
    const Bitboard occ = pieces();
    if (!circe_ && buried_count_ == 0 && parrain_square_ == SQ_NONE) {
        // Without rules (nothing buried or waiting) the diagram squares never matter: a short
        // form, its first byte 0xFF (the long form's is 0xFE).
        k += static_cast<char>(0xFF);
        k.append(reinterpret_cast<const char*>(&occ), sizeof occ);
        std::uint8_t rights = 0;
        const Square corners[6] = {SQ_E1, SQ_A1, SQ_H1, SQ_E8, SQ_A8, SQ_H8};
        for (int i = 0; i < 6; ++i)
            if (castling_ & square_bb(corners[i])) rights |= std::uint8_t(1u << i);
        const bool other_rights = (castling_ & ~(square_bb(SQ_E1) | square_bb(SQ_A1) | square_bb(SQ_H1) |
                                                 square_bb(SQ_E8) | square_bb(SQ_A8) | square_bb(SQ_H8))) != 0;
        if (other_rights) rights |= 0x80;
        k += static_cast<char>(rights);
        if (other_rights) k.append(reinterpret_cast<const char*>(&castling_), sizeof castling_);
        k += static_cast<char>(side_);
        k += static_cast<char>(ep_square_);
        for (Bitboard b = occ; b; b &= b - 1) {
            const Piece p = board_[__builtin_ctzll(b)];
            // walk < 64 (WALK_NB), colour one bit, then a flags byte only when there are flags.
            k += static_cast<char>(p.walk | (p.color << 6) | (p.flags ? 0x80 : 0));
            if (p.flags) k += static_cast<char>(p.flags);
        }
        return;
    }
    k += static_cast<char>(0xFE);
    k.append(reinterpret_cast<const char*>(&occ), sizeof occ);
    const Bitboard castling = castling_;
    k.append(reinterpret_cast<const char*>(&castling), sizeof castling);
    k += static_cast<char>(side_);
    k += static_cast<char>(ep_square_);
    k += static_cast<char>(parrain_square_);
    k += static_cast<char>(parrain_piece_.walk);
    k += static_cast<char>(parrain_piece_.color);
    k += static_cast<char>(parrain_piece_.flags);
    for (Bitboard b = occ; b; b &= b - 1) {
        const Square s = Square(__builtin_ctzll(b));
        const Piece p = board_[s];
        k += static_cast<char>(p.walk);
        k += static_cast<char>(p.color | (p.flags << 1));
        k += static_cast<char>(origin_[s]);
    }
    k += static_cast<char>(buried_count_);
    for (int i = 0; i < buried_count_; ++i) {
        const Buried& u = buried_[i];
        k += static_cast<char>(u.square);
        k += static_cast<char>(u.piece.walk);
        k += static_cast<char>(u.piece.color | (u.piece.flags << 1));
    }
}

void Position::set_side_to_move_for_analysis(Color c) {
    if (c == side_) return;
    if (ep_square_ != SQ_NONE) key_ ^= zobrist::ep_key(ep_square_);
    ep_square_ = SQ_NONE;
    side_ = c;
    key_ ^= zobrist::side_key();
}

void Position::put_for_analysis(Square s, Piece p) {
    if (!board_[s].empty()) {
        key_ ^= zobrist::piece_key(board_[s], s);
        remove_piece(s);
        origin_[s] = SQ_NONE;
    }
    if (p.empty()) return;
    put_piece(p, s);
    origin_[s] = s;
    key_ ^= zobrist::piece_key(p, s);
}

bool Position::is_consistent(std::string* why) const {
    auto fail = [why](const std::string& msg) {
        if (why) *why = msg;
        return false;
    };
    std::array<Bitboard, COLOR_NB> bc{};
    std::array<Bitboard, WALK_NB> bw{};
    std::array<Square, COLOR_NB> ks{SQ_NONE, SQ_NONE};
    for (int si = 0; si < SQUARE_NB; ++si) {
        Piece p = board_[si];
        if (p.empty()) continue;
        bc[p.color] |= square_bb(Square(si));
        bw[p.walk] |= square_bb(Square(si));
        if (p.walk == KING) {
            if (ks[p.color] != SQ_NONE) return fail("two kings of one colour");
            ks[p.color] = Square(si);
        }
    }
    if (bc != by_color_) return fail("colour bitboards differ from the board");
    if (bw != by_walk_) return fail("walk bitboards differ from the board");
    if (ks != king_sq_) return fail("king squares differ from the board");
    if (by_color_[WHITE] & by_color_[BLACK]) return fail("colour bitboards overlap");
    for (Bitboard b = castling_; b;) {
        Square s = pop_lsb(b);
        Piece p = board_[s];
        if (p.empty() || p.walk != (file_of(s) == 4 ? KING : ROOK))
            return fail("castling right on " + square_name(s) + " without its unit");
    }
    if (ep_square_ != SQ_NONE && !board_[ep_square_].empty()) return fail("en passant square occupied");
    if (circe_)
        for (int si = 0; si < SQUARE_NB; ++si)
            if (board_[si].empty() && origin_[si] != SQ_NONE) return fail("diagram square kept on an empty square");
    if (compute_key() != key_) {
        std::ostringstream os;
        os << "incremental key " << std::hex << key_ << " differs from recomputed " << compute_key();
        return fail(os.str());
    }
    return true;
}

}  // namespace rebirth
