// Moves under Circe rules: do/undo with a square change log, rebirth effects, and the
// check rule of each family. The move generator (movegen_rules.cpp) decides every choice a
// move makes (rebirth square and walk, Mars departure); do_rules_move applies it.
#include <stdexcept>

#include "rebirth/bitboard.h"
#include "rebirth/movegen.h"
#include "rebirth/position.h"
#include "rebirth/rules.h"
#include "rules/movegen_rules.h"
#include "rules/rebirth_square.h"

namespace rebirth {

namespace {

constexpr Bitboard kRookHomes = square_bb(SQ_A1) | square_bb(SQ_H1) | square_bb(SQ_A8) | square_bb(SQ_H8);

// The castling right a unit regains by standing on `s` (a reborn rook on its corner, a
// reborn king on e1/e8), or 0.
Bitboard regained_right(Piece p, Square s) {
    const int home_rank = p.color == WHITE ? 0 : 7;
    if (rank_of(s) != home_rank) return 0;
    if (p.walk == ROOK && (kRookHomes & square_bb(s))) return square_bb(s);
    if (p.walk == KING && file_of(s) == 4) return square_bb(s);
    return 0;
}

void add_effect(UndoInfo& u, Effect::Kind kind, Square from, Square to, Piece piece, Walk walk_before = NO_WALK,
                bool silent = false, bool turned = false) {
    if (u.effect_count >= int(u.effects.size())) throw std::logic_error("too many effects in one move");
    Effect& e = u.effects[u.effect_count++];
    e.kind = kind;
    e.from = from;
    e.to = to;
    e.piece = piece;
    e.walk_before = walk_before;
    e.silent = silent;
    e.turned = turned;
}

// The unit as it stands after its rebirth: under Turncoats of the other side.
Piece turned_if(const RuleSet& r, Piece p) {
    if (r.turncoat) p.color = ~p.color;
    return p;
}

}  // namespace

void Position::set_square(Square s, Piece p, Square origin, UndoInfo& u) {
    if (u.change_count >= int(u.changes.size())) throw std::logic_error("too many square changes in one move");
    u.changes[u.change_count++] = UndoInfo::Change{s, board_[s], origin_[s]};
    const bool diagram = rules_->square == SquareRule::Diagram;
    const Piece old = board_[s];
    if (!old.empty()) {
        key_ ^= zobrist::piece_key(old, s);
        if (diagram && origin_[s] != SQ_NONE) key_ ^= zobrist::origin_key(origin_[s], s);
        remove_piece(s);
    }
    origin_[s] = SQ_NONE;
    if (!p.empty()) {
        put_piece(p, s);
        key_ ^= zobrist::piece_key(p, s);
        origin_[s] = origin;
        if (diagram && origin != SQ_NONE) key_ ^= zobrist::origin_key(origin, s);
    }
}

bool Position::do_rules_move(const Move& m, UndoInfo& u) {
    const RuleSet& R = *rules_;
    u.key = key_;
    u.castling = castling_;
    u.ep_square = ep_square_;
    u.halfmove_clock = halfmove_clock_;
    u.change_count = 0;
    u.effect_count = 0;
    u.parrain_piece = parrain_piece_;
    u.parrain_square = parrain_square_;
    u.buried_saved = false;
    auto save_buried = [&] {
        if (u.buried_saved) return;
        u.buried_saved = true;
        u.buried_count = buried_count_;
        for (int i = 0; i < buried_count_; ++i) u.buried[i] = buried_[i];
    };

    const Color us = side_;
    const Piece mover = board_[m.from];
    const Square mover_origin = origin_[m.from];
    u.moved = mover;
    key_ ^= zobrist::side_key();
    if (ep_square_ != SQ_NONE) key_ ^= zobrist::ep_key(ep_square_);
    ep_square_ = SQ_NONE;
    Bitboard touched = square_bb(m.from) | square_bb(m.to);

    Piece captured{};
    Square cap_sq = SQ_NONE;
    Square captured_origin = SQ_NONE;
    if (m.kind == MoveKind::Castling) {
        // Anti-Mars may bring the king (from m.from) and a rook (from m.extra) home first. A
        // rook whose rebirth square is the castling corner castles from there; one whose
        // rebirth square is the other corner stays there (Popeye 4.104: "[wRa3->a1]0-0").
        const bool king_side = file_of(m.to) == 6;
        const int r = rank_of(m.to);
        const Square home = make_square(4, r);
        const Square corner = make_square(king_side ? 7 : 0, r);
        const Square lifted_to = m.extra != SQ_NONE ? classic_rebirth_square(ROOK, us, m.extra) : SQ_NONE;
        const Square lifted = lifted_to != SQ_NONE && lifted_to != corner ? m.extra : SQ_NONE;
        const Square rook_from = m.extra != SQ_NONE && lifted == SQ_NONE ? m.extra : corner;
        const Square rook_to = make_square(king_side ? 5 : 3, r);
        const Piece rook = board_[rook_from];
        const Square rook_origin = origin_[rook_from];
        touched |= square_bb(rook_from) | square_bb(home) | square_bb(corner);
        // Mars: the king's phantom movement to e1/e8 is not written (plain 0-0).
        if (m.from != home) add_effect(u, Effect::Kind::Transfer, m.from, home, mover, NO_WALK, R.mars);
        if (rook_from != corner) add_effect(u, Effect::Kind::Transfer, rook_from, corner, rook);
        Piece other{};
        Square other_origin = SQ_NONE;
        if (lifted != SQ_NONE) {
            other = board_[lifted];
            other_origin = origin_[lifted];
            touched |= square_bb(lifted) | square_bb(lifted_to);
            add_effect(u, Effect::Kind::Transfer, lifted, lifted_to, other);
            set_square(lifted, Piece{}, SQ_NONE, u);
        }
        set_square(m.from, Piece{}, SQ_NONE, u);
        set_square(rook_from, Piece{}, SQ_NONE, u);
        set_square(m.to, mover, mover_origin, u);
        set_square(rook_to, rook, rook_origin, u);
        if (lifted != SQ_NONE) set_square(lifted_to, other, other_origin, u);
    } else {
        cap_sq = capture_square(m, us);
        captured = board_[cap_sq];
        captured_origin = origin_[cap_sq];
        touched |= square_bb(cap_sq);
        if (!captured.empty() && cap_sq != m.to) set_square(cap_sq, Piece{}, SQ_NONE, u);
        Piece arrived = mover;
        if (m.kind == MoveKind::Promotion)
            arrived = make_piece(us, m.promotion, std::uint8_t(mover.flags | PF_PROMOTED));
        set_square(m.from, Piece{}, SQ_NONE, u);
        set_square(m.to, arrived, mover_origin, u);
    }
    u.captured = captured;
    u.capture_square = captured.empty() ? SQ_NONE : cap_sq;
    Bitboard regained = 0;

    // Puts `unit` reborn on the empty square s. Under Turncoats it changes side there, and a
    // rook or king of its new side on its game-array square regains that right (Popeye 4.104
    // castles 0-0-0 after Bc3*h8[+bRa1=w] under Double Agents).
    auto place_reborn = [&](Piece unit, Square s, Square origin, Walk walk_before) {
        const Piece placed = turned_if(R, unit);
        set_square(s, placed, origin, u);
        add_effect(u, Effect::Kind::Rebirth, SQ_NONE, s, placed, walk_before, false, R.turncoat);
        regained |= regained_right(placed, s);
    };
    // Parachute: lifts the occupant of s (silently), which lands first when the square empties.
    auto lift_occupant = [&](Square s) {
        const Piece occupant = board_[s];
        save_buried();
        if (buried_count_ >= MAX_BURIED) throw std::logic_error("too many lifted units");
        for (int j = buried_count_; j > 0; --j) buried_[j] = buried_[j - 1];
        ++buried_count_;
        buried_[0] = Buried{s, occupant};
        key_ ^= zobrist::buried_key(occupant, s);
        add_effect(u, Effect::Kind::Lift, s, SQ_NONE, occupant, NO_WALK, true);
        set_square(s, Piece{}, SQ_NONE, u);
    };

    // Puts `unit` on `s` by rebirth under the occupied-square rule; returns false when the
    // rules forbid the move.
    auto reborn_onto = [&](Piece unit, Square s, Square origin, Walk walk_before) {
        const Piece occupant = board_[s];
        if (occupant.empty()) {
            place_reborn(unit, s, origin, walk_before);
            return true;
        }
        switch (R.occupied) {
            case Occupied::Relaxed:
                return true;  // the unit is lost
            case Occupied::Strict:
                return false;
            case Occupied::Assassin:
            case Occupied::Ultra: {
                // The occupant is removed (silently); under Ultra it is reborn in turn from
                // where it was removed, and so on. Reaching a king's square is illegal.
                Piece removed = occupant;
                Piece placing = unit;
                Walk before = walk_before;
                for (int guard = 0; guard < 64; ++guard) {
                    if (removed.walk == KING) return false;
                    add_effect(u, Effect::Kind::Removal, s, SQ_NONE, removed, NO_WALK, true);
                    place_reborn(placing, s, origin, before);
                    if (R.occupied != Occupied::Ultra) return true;
                    const Square next = classic_rebirth_square(removed.walk, removed.color, s);
                    if (next == s) return true;  // removed from its own rebirth square: gone
                    placing = removed;
                    before = NO_WALK;
                    origin = SQ_NONE;
                    s = next;
                    removed = board_[s];
                    if (removed.empty()) {
                        place_reborn(placing, s, SQ_NONE, NO_WALK);
                        return true;
                    }
                }
                return true;
            }
            case Occupied::Volcanic:
                save_buried();
                if (buried_count_ >= MAX_BURIED) throw std::logic_error("too many buried units");
                buried_[buried_count_++] = Buried{s, unit};
                key_ ^= zobrist::buried_key(unit, s);
                add_effect(u, Effect::Kind::Burial, SQ_NONE, s, unit, walk_before);
                return true;
            case Occupied::Parachute:
                lift_occupant(s);
                place_reborn(unit, s, origin, walk_before);
                return true;
        }
        return true;
    };

    bool ok = true;
    const bool capture = !captured.empty();
    if (capture && parrain_like(R)) {
        // The rebirth waits for the next move.
        parrain_piece_ = captured;
        parrain_square_ = cap_sq;
    }
    // The captured unit's rebirth (Circe types).
    auto captured_part = [&] {
        if (m.rebirth != SQ_NONE) {
            Piece unit = captured;
            Walk before = NO_WALK;
            if (m.rebirth_walk != NO_WALK && m.rebirth_walk != unit.walk) {
                if (unit.walk == PAWN && last_rank(unit.color, m.rebirth)) {
                    before = PAWN;
                    unit.flags |= PF_PROMOTED;
                }
                unit.walk = m.rebirth_walk;
            }
            // Atom: the units next to the capture square at the time of the capture.
            const Bitboard blast = R.atom ? king_attacks(cap_sq) & pieces() & ~pieces(KING) : 0;
            if (R.kamikaze) {
                // The capturer vanishes for good, before the rebirth.
                add_effect(u, Effect::Kind::Removal, m.to, SQ_NONE, board_[m.to]);
                set_square(m.to, Piece{}, SQ_NONE, u);
            }
            if (R.hydra) {
                // Hydra: reborn on the square and on its mirror across the d/e line, each
                // only where empty.
                for (const Square s : {m.rebirth, make_square(7 - file_of(m.rebirth), rank_of(m.rebirth))})
                    if (board_[s].empty()) {
                        set_square(s, unit, s == m.rebirth ? captured_origin : SQ_NONE, u);
                        add_effect(u, Effect::Kind::Rebirth, SQ_NONE, s, unit, before);
                        regained |= regained_right(unit, s);
                    }
            } else {
                ok = reborn_onto(unit, m.rebirth, captured_origin, before);
            }
            // Atom: each unit of the blast, in square order, goes to its own rebirth
            // square if empty, else is lost (also when already standing on it).
            for (Bitboard b = blast; ok && b;) {
                const Square s = pop_lsb(b);
                const Piece unit_s = board_[s];
                if (unit_s.empty()) continue;
                const Square home =
                    classic_rebirth_square(unit_s.walk, unit_s.color, s, R.frischauf && (unit_s.flags & PF_PROMOTED));
                set_square(s, Piece{}, SQ_NONE, u);
                if (home != s && board_[home].empty()) {
                    set_square(home, unit_s, SQ_NONE, u);
                    add_effect(u, Effect::Kind::Transfer, s, home, unit_s);
                    regained |= regained_right(unit_s, home);
                } else {
                    add_effect(u, Effect::Kind::Removal, s, SQ_NONE, unit_s);
                }
            }
        } else if (R.kamikaze) {
            add_effect(u, Effect::Kind::Removal, m.to, SQ_NONE, board_[m.to]);
            set_square(m.to, Piece{}, SQ_NONE, u);
        }
    };
    // The capturer's rebirth (Anti-Circe types) to m.extra, with walk m.spare if it changes.
    auto capturer_part = [&] {
        if (m.extra == SQ_NONE) return;  // Relaxed: it stays without rebirth
        const Occupied anti_occ = R.reborn == Reborn::Both ? R.both_capturer.occupied : R.occupied;
        // Anti-Circe: the capturer (as promoted) goes to its rebirth square m.extra,
        // with its new walk under Chameleon (m.rebirth_walk).
        const Piece arrived = board_[m.to];
        Piece capturer = arrived;
        if (m.spare != NO_WALK) {
            if (capturer.walk == PAWN) capturer.flags |= PF_PROMOTED;  // promoted on rebirth
            capturer.walk = m.spare;
        }
        // The capturer lands on `to` (under Turncoats as a unit of the other side): its rebirth
        // square, or the capture square itself under Calvet ([wKc6->c6]).
        auto land = [&](Square to) {
            const Piece landed = turned_if(R, capturer);
            if (to != m.to || capturer.walk != arrived.walk || R.turncoat) set_square(to, landed, mover_origin, u);
            add_effect(u, Effect::Kind::Transfer, m.to, to, landed, arrived.walk, false, R.turncoat);
            regained |= regained_right(landed, to);
        };
        if (m.extra != m.to) {
            const Piece occupant = board_[m.extra];
            set_square(m.to, Piece{}, SQ_NONE, u);
            if (!occupant.empty() && (anti_occ == Occupied::Assassin || anti_occ == Occupied::Ultra)) {
                // Anti-Circe Assassin: the occupant is removed; never a king.
                if (occupant.walk == KING) {
                    ok = false;
                    return;
                }
                add_effect(u, Effect::Kind::Removal, m.extra, SQ_NONE, occupant, NO_WALK, true);
                set_square(m.extra, Piece{}, SQ_NONE, u);
            }
            // Anti-Circe Parachute (Popeye 4.104: a6*b7[wPb7->b2], then b2-b3[+bPb2]).
            if (!board_[m.extra].empty() && anti_occ == Occupied::Parachute) lift_occupant(m.extra);
            if (board_[m.extra].empty()) {
                land(m.extra);
            } else if (anti_occ == Occupied::Volcanic) {
                save_buried();
                if (buried_count_ >= MAX_BURIED) throw std::logic_error("too many buried units");
                buried_[buried_count_++] = Buried{m.extra, capturer};
                key_ ^= zobrist::buried_key(capturer, m.extra);
                add_effect(u, Effect::Kind::Burial, m.to, m.extra, capturer, arrived.walk);
            } else {
                ok = false;
            }
        } else {
            land(m.to);  // Calvet
        }
    };
    if (capture && !R.mars && !delayed_rebirth(R)) {
        // Circe + Anti-Circe: the capturer first, then the captured unit.
        if (R.reborn == Reborn::Capturer || R.reborn == Reborn::Both) capturer_part();
        if (ok && (R.reborn == Reborn::Captured || R.reborn == Reborn::Both)) captured_part();
    }

    // Parrain: the unit captured by the previous move is reborn now, shifted by this move.
    if (ok && parrain_like(R) && u.parrain_square != SQ_NONE) {
        int df = file_of(m.to) - file_of(m.from), dr = rank_of(m.to) - rank_of(m.from);
        if (m.kind == MoveKind::Castling) df += file_of(m.to) == 6 ? -2 : 3;  // king vector + rook vector
        if (R.square == SquareRule::ContraParrain) {
            df = -df;
            dr = -dr;
        }
        const int f = file_of(u.parrain_square) + df, r = rank_of(u.parrain_square) + dr;
        if (on_board(f, r) && board_[make_square(f, r)].empty()) {
            Piece unit = u.parrain_piece;
            Walk before = NO_WALK;
            const Square s = make_square(f, r);
            if (unit.walk == PAWN && m.rebirth_walk != NO_WALK) {
                before = PAWN;
                unit.walk = m.rebirth_walk;
                unit.flags |= PF_PROMOTED;
            }
            set_square(s, unit, SQ_NONE, u);
            add_effect(u, Effect::Kind::Rebirth, SQ_NONE, s, unit, before);
            regained |= regained_right(unit, s);
        }
        if (!capture) {
            parrain_piece_ = Piece{};
            parrain_square_ = SQ_NONE;
        }
    }
    if (ok && parrain_like(R)) {
        if (u.parrain_square != SQ_NONE) key_ ^= zobrist::parrain_key(u.parrain_piece, u.parrain_square);
        if (!capture) {
            parrain_piece_ = Piece{};
            parrain_square_ = SQ_NONE;
        }
        if (parrain_square_ != SQ_NONE) key_ ^= zobrist::parrain_key(parrain_piece_, parrain_square_);
    }

    // WaitCapture: a capture reborns the unit the previous capture took, by the square rule
    // from that capture's square and only if the square is empty (Relaxed); the unit it takes
    // waits in turn (Popeye 4.104: 3.d5*c6 ep.[+bPd5] after 2.e4*d5 under Circe CaptureSquare
    // WaitCapture).
    if (ok && R.wait_capture && capture) {
        if (u.parrain_square != SQ_NONE) {
            key_ ^= zobrist::parrain_key(u.parrain_piece, u.parrain_square);
            CaptureFacts f;
            f.unit = u.parrain_piece;
            f.capture = u.parrain_square;
            const Square s = rebirth_square(R, f, u.parrain_piece.walk);
            if (s != SQ_NONE && board_[s].empty()) {
                set_square(s, u.parrain_piece, SQ_NONE, u);
                add_effect(u, Effect::Kind::Rebirth, SQ_NONE, s, u.parrain_piece);
                regained |= regained_right(u.parrain_piece, s);
            }
        }
        parrain_piece_ = captured;
        parrain_square_ = cap_sq;
        key_ ^= zobrist::parrain_key(parrain_piece_, parrain_square_);
    }

    // Buried or lifted units whose square is empty now come back.
    if (ok && buried_count_) {
        for (int i = 0; i < buried_count_;) {
            const Buried b = buried_[i];
            if (board_[b.square].empty()) {
                save_buried();
                key_ ^= zobrist::buried_key(b.piece, b.square);
                for (int j = i + 1; j < buried_count_; ++j) buried_[j - 1] = buried_[j];
                --buried_count_;
                set_square(b.square, b.piece, SQ_NONE, u);
                add_effect(u, R.occupied == Occupied::Parachute ? Effect::Kind::Landing : Effect::Kind::Eruption,
                           SQ_NONE, b.square, b.piece);
                regained |= regained_right(b.piece, b.square);
            } else {
                ++i;
            }
        }
    }

    // Castling rights: lost by every unit that moved or was taken, regained by rebirth.
    Bitboard new_rights = (castling_ & ~touched) | regained;
    if (m.kind == MoveKind::Castling) new_rights &= ~R.castling_cancels(board_[m.to].color, m.to > m.from);
    for (Bitboard b = new_rights; b;) {
        const Square s = pop_lsb(b);
        const Piece p = board_[s];
        if (p.walk != (file_of(s) == 4 ? KING : ROOK) || p.color != (rank_of(s) == 0 ? WHITE : BLACK))
            new_rights &= ~square_bb(s);
    }
    for (Bitboard b = castling_ ^ new_rights; b;) key_ ^= zobrist::castling_key(pop_lsb(b));
    castling_ = new_rights;

    // A double step (Anti-Mars: from the rebirth square m.extra) gives the en passant right,
    // unless a rebirth filled the square it crossed (Parrain: d7-d5[+bQd6]; Popeye then lets
    // e5 take the queen on d6, not the pawn en passant).
    const Square step_from = (R.antimars && m.extra != SQ_NONE) ? m.extra : m.from;
    if (mover.walk == PAWN && m.kind == MoveKind::Normal && (m.to - step_from == 16 || step_from - m.to == 16) &&
        board_[m.to] == mover && board_[Square((step_from + m.to) / 2)].empty()) {
        ep_square_ = Square((step_from + m.to) / 2);
        key_ ^= zobrist::ep_key(ep_square_);
    }
    halfmove_clock_ = (mover.walk == PAWN || capture) ? 0 : halfmove_clock_ + 1;
    side_ = ~us;
    ++ply_;
    if (!ok) {
        undo_rules_move(m, u);
        return false;
    }
#ifdef REBIRTH_CHECKED
    std::string why;
    if (!is_consistent(&why)) throw std::logic_error("do_rules_move: " + why);
#endif
    return true;
}

void Position::undo_rules_move(const Move&, const UndoInfo& u) {
    for (int i = u.change_count - 1; i >= 0; --i) {
        const UndoInfo::Change& c = u.changes[i];
        if (!board_[c.square].empty()) remove_piece(c.square);
        if (!c.before.empty()) put_piece(c.before, c.square);
        origin_[c.square] = c.origin_before;
    }
    if (u.buried_saved) {
        for (int i = 0; i < u.buried_count; ++i) buried_[i] = u.buried[i];
        buried_count_ = u.buried_count;
    }
    parrain_piece_ = u.parrain_piece;
    parrain_square_ = u.parrain_square;
    side_ = ~side_;
    --ply_;
    restore_state(u, "undo_rules_move");
}

bool Position::rules_in_check(Color c) const {
    const Square k = king_sq_[c];
    if (k == SQ_NONE) return false;
    const RuleSet& R = *rules_;
    // Fast path: rebirth rules whose king captures are orthodox (Circe rex exclusive, any
    // square rule, no Mars/Anti-Circe/Assassin check).
    if (!R.mars && R.reborn == Reborn::Captured && R.rex == Rex::Exclusive && R.occupied != Occupied::Assassin &&
        R.occupied != Occupied::Ultra) {
        return attackers_to(k, ~c) != 0;
    }
    return king_capturable(*this, c);
}

}  // namespace rebirth
