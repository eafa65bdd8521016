#include "movegen_rules.h"

#include "rebirth/bitboard.h"
#include "rebirth/rules.h"
#include "rebirth_square.h"
#include "walk_attacks.h"

namespace rebirth {

namespace {

// Targets of a non-pawn unit of walk w on `from` with occupancy `occ` (colour not filtered).
Bitboard walk_targets(Walk w, Square from, Bitboard occ) {
    switch (w) {
        case KING: return king_attacks(from);
        case KNIGHT: return knight_attacks(from);
        case BISHOP: return bishop_attacks(from, occ);
        case ROOK: return rook_attacks(from, occ);
        case QUEEN: return queen_attacks(from, occ);
        default: {
            Bitboard t = 0;
            for_each_walk_target(w, from, occ, [&](Square s) { t |= square_bb(s); });
            return t;
        }
    }
}

class RuleGen {
public:
    RuleGen(const Position& pos, Color side, MoveList& list)
        : pos_(pos), R_(*pos.rules()), side_(side), list_(list), occ_(pos.pieces()) {}

    // Every pseudo-legal move of side_ (see generate_rule_moves).
    void run(Bitboard targets, bool quiet) {
        for (Bitboard b = pos_.pieces(side_); b;) {
            const Square q = pop_lsb(b);
            const Piece p = pos_.piece_on(q);
            const Square home = mars_square(p, q);
            if (R_.mars) {
                if (quiet) unit_moves(p, q, q, occ_, 0, true);
                if (home == q)
                    unit_moves(p, q, q, occ_, targets, false);
                else if (home != SQ_NONE && pos_.empty(home))
                    unit_moves(p, q, home, (occ_ ^ square_bb(q)) | square_bb(home), targets, false);
            } else if (R_.antimars) {
                unit_moves(p, q, q, occ_, targets, false);
                if (quiet) {
                    if (home == q)
                        unit_moves(p, q, q, occ_, 0, true);
                    else if (home != SQ_NONE && pos_.empty(home)) {
                        // Popeye 4.104 drops a move back onto the unit's own square, except a
                        // pawn's double step (d4-d2-d4 exists).
                        const int before = list_.size();
                        unit_moves(p, q, home, (occ_ ^ square_bb(q)) | square_bb(home), 0, true);
                        int kept = before;
                        for (int i = before; i < list_.size(); ++i) {
                            const Move& mv = list_[i];
                            const bool double_step = p.walk == PAWN && (mv.to - home == 16 || home - mv.to == 16);
                            if (mv.to != q || double_step) list_[kept++] = mv;
                        }
                        list_.truncate(kept);
                    }
                }
            } else {
                unit_moves(p, q, q, occ_, targets, quiet);
            }
        }
        if (quiet && side_ == pos_.side_to_move()) {
            if (R_.antimars) {
                // Castling from the king's rebirth square (king flag forced), also with a rook
                // sent to its rebirth square, and once more on the capture path.
                antimars_castling();
                castling(false);
            } else {
                castling(false);
                if (R_.mars) castling(true);  // the king's second path, from its rebirth square
            }
            en_passant(targets);
        }
    }

private:
    // Mars / Anti-Mars departure square of unit p standing on q (its classic rebirth
    // square computed from q).
    Square mars_square(Piece p, Square q) const {
        if (!R_.mars && !R_.antimars) return q;
        return classic_rebirth_square(p.walk, R_.mirror ? ~p.color : p.color, q,
                                      R_.frischauf && (p.flags & PF_PROMOTED));
    }

    // Moves of unit p (standing on q) as if it stood on d with occupancy occ: captures of
    // units on `targets`, non-captures when `quiet`.
    void unit_moves(Piece p, Square q, Square d, Bitboard occ, Bitboard targets, bool quiet) {
        const Bitboard enemies = pos_.pieces(~side_) & targets;
        const Square via = d == q ? SQ_NONE : d;
        if (p.walk == PAWN) {
            const int rr = relative_rank(side_, rank_of(d));
            if (rr == 7 || (rr == 0 && !first_rank_pawns_move(R_))) return;
            const int up = side_ == WHITE ? 8 : -8;
            const bool promo = rr == 6;
            if (quiet) {
                const Square one = Square(d + up);
                if (!(occ & square_bb(one)) || one == q) {
                    push(q, one, via, promo);
                    const Square two = Square(one + up);
                    if (rr == 1 && (!(occ & square_bb(two)) || two == q)) push(q, two, via, false);
                }
            }
            for (Bitboard t = pawn_attacks(side_, d) & enemies; t;) push(q, pop_lsb(t), via, promo);
            return;
        }
        const Bitboard t = walk_targets(p.walk, d, occ);
        for (Bitboard c = t & enemies; c;) push(q, pop_lsb(c), via, false);
        if (quiet)
            for (Bitboard n = t & ~occ; n;) push(q, pop_lsb(n), via, false);
    }

    // One base move (all promotions), expanded into its rule choices.
    void push(Square from, Square to, Square via, bool promo) {
        Move m;
        m.from = from;
        m.to = to;
        m.extra = via;
        if (!promo) {
            expand(m);
            return;
        }
        m.kind = MoveKind::Promotion;
        for (int i = 0; i < pos_.promotion_walk_count(); ++i) {
            m.promotion = pos_.promotion_walks()[i];
            expand(m);
        }
    }

    // Whether square s is empty after the capture from `from` to `to` (capturing on cap).
    bool empty_after(Square s, Square from, Square to, Square cap) const {
        if (s == to) return R_.kamikaze;
        if (s == from || s == cap) return true;
        return pos_.empty(s);
    }

    void expand(Move m) {
        const Square cap = m.kind == MoveKind::EnPassant ? Square(side_ == WHITE ? m.to - 8 : m.to + 8) : m.to;
        const Piece captured = pos_.piece_on(cap);
        if (captured.empty() || R_.mars || parrain_like(R_)) {
            if (!parrain_like(R_) || pos_.parrain_square() == SQ_NONE)
                list_.push(m);
            else
                parrain_choices(m);
            return;
        }
        const Piece mover = pos_.piece_on(m.from);
        Piece capturer = mover;
        if (m.kind == MoveKind::Promotion) {
            capturer.walk = m.promotion;
            capturer.flags |= PF_PROMOTED;
        }
        if (R_.reborn == Reborn::Capturer) {
            anti_circe(m, capturer);
            return;
        }
        if (R_.reborn == Reborn::None) {
            list_.push(m);
            return;
        }
        if (captured.walk == KING && R_.rex == Rex::Exclusive) {
            list_.push(m);  // kings are never reborn
            return;
        }
        CaptureFacts f;
        f.unit = captured;
        f.capture = cap;
        f.from = m.from;
        f.to = m.to;
        f.capturer = capturer;
        f.capturer_walk_before = mover.walk;
        f.origin = pos_.origin(cap);
        const Walk walk = reborn_walk(R_, f);
        switch (R_.square) {
            case SquareRule::Super:
                if (R_.occupied != Occupied::Strict) list_.push(m);  // no rebirth is a choice too
                for (int s = 0; s < SQUARE_NB; ++s)
                    if (empty_after(Square(s), m.from, m.to, cap)) rebirth_on(m, Square(s), walk, captured.color);
                return;
            case SquareRule::TakeMake: take_and_make(m, cap, captured, walk); return;
            case SquareRule::Cage: cage(m, cap, captured, walk); return;
            default: break;
        }
        const Square r = rebirth_square(R_, f, walk);
        if (r == SQ_NONE) {
            list_.push(m);
            return;
        }
        if (!empty_after(r, m.from, m.to, cap)) {
            switch (R_.occupied) {
                case Occupied::Relaxed: list_.push(m); return;
                case Occupied::Strict: return;
                default: break;
            }
        }
        rebirth_on(m, r, walk, captured.color);
    }

    // The capture m with the captured unit reborn on r (one move per promotion choice when
    // a pawn is reborn on its last rank).
    void rebirth_on(Move m, Square r, Walk walk, Color c) {
        m.rebirth = r;
        if (walk == PAWN && last_rank(c, r) && rebirth_promotes(R_)) {
            for (int i = 0; i < pos_.promotion_walk_count(); ++i) {
                m.rebirth_walk = pos_.promotion_walks()[i];
                list_.push(m);
            }
            return;
        }
        m.rebirth_walk = walk;
        list_.push(m);
    }

    // Anti-Circe: the capturer (as promoted) goes to its rebirth square, which must be
    // empty (its departure counts as empty); on its own rebirth square it stays (Calvet) or
    // may not capture (Cheylan).
    void anti_circe(Move m, Piece capturer) {
        CaptureFacts f;
        f.unit = capturer;
        f.capture = m.to;
        f.from = m.from;
        f.to = m.to;
        f.capturer = capturer;
        f.origin = pos_.origin(m.from);
        const Square r = rebirth_square(R_, f, capturer.walk);
        if (r == SQ_NONE) return;
        if (r == m.to) {
            if (R_.cheylan) return;
        } else if (r != m.from && !pos_.empty(r) && R_.occupied != Occupied::Volcanic) {
            return;
        }
        m.extra = r;
        list_.push(m);
    }

    // Parrain: a non-capture that also places the unit captured by the previous move; a
    // pawn placed on its last rank promotes (one move per walk).
    void parrain_choices(Move m) {
        const Piece unit = pos_.parrain_piece();
        int df = file_of(m.to) - file_of(m.from), dr = rank_of(m.to) - rank_of(m.from);
        if (m.kind == MoveKind::Castling) df += file_of(m.to) == 6 ? -2 : 3;
        if (R_.square == SquareRule::ContraParrain) {
            df = -df;
            dr = -dr;
        }
        const int f = file_of(pos_.parrain_square()) + df, r = rank_of(pos_.parrain_square()) + dr;
        const Square s = on_board(f, r) ? make_square(f, r) : SQ_NONE;
        // The target must be empty after the move (the mover's departure square is).
        const bool empty = s != SQ_NONE && s != m.to && (s == m.from || pos_.empty(s)) &&
                           (m.kind != MoveKind::Castling || s != make_square(file_of(m.to) == 6 ? 5 : 3, rank_of(m.to)));
        if (unit.walk == PAWN && empty && last_rank(unit.color, s)) {
            for (int i = 0; i < pos_.promotion_walk_count(); ++i) {
                m.rebirth_walk = pos_.promotion_walks()[i];
                list_.push(m);
            }
            return;
        }
        list_.push(m);
    }

    // Castling with the king on its home square; `force_king` ignores the king's own right
    // (Mars Circe's second path, from the king's rebirth square).
    void castling(bool force_king) {
        const Color us = side_;
        const Square k = us == WHITE ? SQ_E1 : SQ_E8;
        if (pos_.king_square(us) != k) return;
        if (!force_king && !(pos_.castling_rights() & square_bb(k))) return;
        if (pos_.in_check(us)) return;
        const int r = rank_of(k);
        for (bool king_side : {true, false}) {
            const Square rook = make_square(king_side ? 7 : 0, r);
            if (!(pos_.castling_rights() & square_bb(rook))) continue;
            if (between_bb(k, rook) & occ_) continue;
            const Square pass = make_square(king_side ? 5 : 3, r);
            const Square dest = make_square(king_side ? 6 : 2, r);
            // The king may not pass through check: play the one-step king move and test.
            Move step;
            step.from = k;
            step.to = pass;
            Position scratch = pos_;
            UndoInfo u;
            if (!scratch.do_rules_move(step, u)) continue;
            const bool attacked = scratch.in_check(us);
            scratch.undo_move(step, u);
            if (attacked) continue;
            Move m;
            m.from = k;
            m.to = dest;
            m.kind = MoveKind::Castling;
            expand(m);
        }
    }

    // Take&Make: the captured unit, standing on its capture square instead of the capturer,
    // makes a non-capturing move of its walk; each arrival is a rebirth choice. Without such a
    // move the capture is illegal.
    void take_and_make(Move m, Square cap, Piece captured, Walk walk) {
        Bitboard occ = occ_ ^ square_bb(m.from);
        if (cap != m.to) occ |= square_bb(m.to);  // en passant: the capturer stands behind
        Bitboard arrivals = 0;
        if (walk == PAWN) {
            const int rr = relative_rank(captured.color, rank_of(cap));
            const int up = captured.color == WHITE ? 8 : -8;
            if (rr != 0 && rr != 7) {
                const Square one = Square(cap + up);
                if (!(occ & square_bb(one))) {
                    arrivals |= square_bb(one);
                    const Square two = Square(one + up);
                    if (rr == 1 && !(occ & square_bb(two))) arrivals |= square_bb(two);
                }
            }
        } else {
            arrivals = walk_targets(walk, cap, occ) & ~occ;
        }
        for (Bitboard b = arrivals; b;) rebirth_on(m, pop_lsb(b), walk, captured.color);
    }

    // Cage: rebirth on an empty square where the reborn unit then has no legal non-capturing
    // move; without any such square the capture is played without rebirth (not under Strict).
    void cage(Move m, Square cap, Piece captured, Walk walk) {
        MoveList options;
        RuleGen sub(pos_, side_, options);
        for (int s = 0; s < SQUARE_NB; ++s)
            if (empty_after(Square(s), m.from, m.to, cap)) sub.rebirth_on(m, Square(s), walk, captured.color);
        bool any = false;
        Position scratch = pos_;
        for (const Move& o : options) {
            UndoInfo u;
            if (!scratch.do_rules_move(o, u)) continue;
            const bool caged = !has_legal_quiet_move(scratch, o.rebirth);
            scratch.undo_move(o, u);
            if (caged) {
                list_.push(o);
                any = true;
            }
        }
        if (!any && R_.occupied != Occupied::Strict) list_.push(m);
    }

    // Whether the unit on s (of the side to move in pos) has a legal non-capturing move.
    static bool has_legal_quiet_move(Position& pos, Square s) {
        MoveList quiet;
        const Color side = pos.side_to_move();
        generate_rule_moves(pos, side, 0, true, quiet);
        for (const Move& q : quiet) {
            if (q.from != s || q.kind == MoveKind::Castling) continue;
            UndoInfo u;
            if (!pos.do_rules_move(q, u)) continue;
            const bool legal = !pos.in_check(side);
            pos.undo_move(q, u);
            if (legal) return true;
        }
        return false;
    }

    // Anti-Mars castling: the king castles from its rebirth square e1/e8 (its own right is not
    // needed), with a rook that has its right or, for a rook elsewhere, from that rook's
    // rebirth square; the units brought home are written before the castling sign.
    void antimars_castling() {
        const Color us = side_;
        const Square kq = pos_.king_square(us);
        if (kq == SQ_NONE) return;
        const Square e = us == WHITE ? SQ_E1 : SQ_E8;
        if (kq != e && !pos_.empty(e)) return;
        const int r = rank_of(e);
        for (bool king_side : {true, false}) {
            const Square corner = make_square(king_side ? 7 : 0, r);
            // (a) the rook on its corner with its right; (b) any other rook whose rebirth
            // square is this (empty) corner.
            Bitboard rooks = 0;
            if (pos_.castling_rights() & square_bb(corner)) rooks |= square_bb(corner);
            if (pos_.empty(corner))
                for (Bitboard b = pos_.pieces(us, ROOK); b;) {
                    const Square rq = pop_lsb(b);
                    if (classic_rebirth_square(ROOK, us, rq) == corner) rooks |= square_bb(rq);
                }
            for (Bitboard b = rooks; b;) {
                const Square rq = pop_lsb(b);
                const Bitboard occ = (occ_ ^ square_bb(kq) ^ square_bb(rq)) | square_bb(e) | square_bb(corner);
                if (between_bb(e, corner) & occ) continue;
                const Square pass = make_square(king_side ? 5 : 3, r);
                if (pos_.attackers_to(e, ~us, occ) || pos_.attackers_to(pass, ~us, occ)) continue;
                Move m;
                m.from = kq;
                m.to = make_square(king_side ? 6 : 2, r);
                m.kind = MoveKind::Castling;
                m.extra = rq == corner ? SQ_NONE : rq;
                list_.push(m);
            }
        }
    }

    void en_passant(Bitboard targets) {
        const Square ep = pos_.ep_square();
        if (ep == SQ_NONE || R_.mars) return;
        const Square cap = Square(side_ == WHITE ? ep - 8 : ep + 8);
        if (!(targets & square_bb(cap))) return;
        for (Bitboard b = pawn_attacks(~side_, ep) & pos_.pieces(side_, PAWN); b;) {
            Move m;
            m.from = pop_lsb(b);
            m.to = ep;
            m.kind = MoveKind::EnPassant;
            expand(m);
        }
    }

    const Position& pos_;
    const RuleSet& R_;
    const Color side_;
    MoveList& list_;
    const Bitboard occ_;
};

}  // namespace

void generate_rule_moves(const Position& pos, Color side, Bitboard targets, bool quiet, MoveList& list) {
    RuleGen(pos, side, list).run(targets, quiet);
}

bool king_capturable(const Position& pos, Color c) {
    const Square k = pos.king_square(c);
    if (k == SQ_NONE) return false;
    const RuleSet& R = *pos.rules();
    MoveList caps;
    generate_rule_moves(pos, ~c, square_bb(k), false, caps);
    for (const Move& m : caps) {
        if (m.to != k) continue;
        if (R.rex == Rex::Inclusive && R.reborn == Reborn::Captured && m.rebirth != SQ_NONE) continue;
        return true;
    }
    if (R.occupied == Occupied::Assassin || R.occupied == Occupied::Ultra) {
        caps.clear();
        generate_rule_moves(pos, ~c, pos.pieces(c) & ~square_bb(k), false, caps);
        for (const Move& m : caps)
            if (m.rebirth == k) return true;
    }
    return false;
}

void generate_rules_legal(const Position& pos, MoveList& list) {
    MoveList pseudo;
    const Color us = pos.side_to_move();
    generate_rule_moves(pos, us, pos.pieces(~us), true, pseudo);
    Position scratch = pos;
    list.clear();
    for (const Move& m : pseudo) {
        UndoInfo u;
        if (!scratch.do_rules_move(m, u)) continue;
        const bool ok = !scratch.in_check(us);
        scratch.undo_move(m, u);
        if (ok) list.push(m);
    }
}

}  // namespace rebirth
