#include "rebirth/proof_rebirth.h"

#include <algorithm>
#include <functional>
#include <mutex>
#include <vector>

#include "proofgame/cache_slot.h"
#include "rebirth/assignment.h"
#include "rebirth/bitboard.h"
#include "rebirth/distance.h"
#include "rules/rebirth_square.h"

namespace rebirth {

namespace {

constexpr int kWalks = 6;  // KING..PAWN
constexpr Bitboard kAll = ~Bitboard(0);

int walk_index(Walk w) { return w - KING; }

// The square rules whose square depends on the unit and the capture square alone.
bool square_from_capture(SquareRule s) {
    switch (s) {
        case SquareRule::Classic:
        case SquareRule::File:
        case SquareRule::Rank:
        case SquareRule::Symmetry:
        case SquareRule::VerticalSymmetry:
        case SquareRule::HorizontalSymmetry:
        case SquareRule::Antipodes:
        case SquareRule::Diametral:
            return true;
        default:
            return false;
    }
}

// The squares of b mirrored across the d/e line.
Bitboard mirror_files(Bitboard b) {
    Bitboard m = 0;
    for (Bitboard t = b; t;) m |= square_bb(mirrored_file(pop_lsb(t)));
    return m;
}

// Per colour and walk, the origins (Diagram Circe's rebirth squares) of start's units of that
// walk, and of its pawns for the walks they promote to; every square without a start.
std::array<std::array<Bitboard, 6>, 2> diagram_origins(const Position* start) {
    std::array<std::array<Bitboard, 6>, 2> sets;
    for (auto& per_walk : sets) per_walk.fill(start ? 0 : kAll);
    if (!start) return sets;
    for (Bitboard b = start->pieces(); b;) {
        const Square s = pop_lsb(b);
        const Piece p = start->piece_on(s);
        const Square origin = start->origin(s);
        if (origin == SQ_NONE || p.walk < KING || p.walk > PAWN) continue;
        sets[p.color][size_t(p.walk - KING)] |= square_bb(origin);
        if (p.walk == PAWN)
            for (Walk w : {QUEEN, ROOK, BISHOP, KNIGHT}) sets[p.color][size_t(w - KING)] |= square_bb(origin);
    }
    return sets;
}

// The squares where a unit of colour c and walk w captured on s may be reborn under `rules`
// (a promoted one too under Frisch-auf); every square where the rule needs more facts.
// `captured`: the unit is the captured one (else the capturer, Anti-Circe's rebirth).
Bitboard rebirth_squares(const RuleSet& rules, Color c, Walk w, Square s, bool captured = true) {
    if (!square_from_capture(rules.square)) {
        // Rules whose square depends on the capturing move, for units of the orthodox walks:
        // PWC's departure square and Equipollents' capture square plus the move's vector are
        // a queen's line or a knight's step from the capture square (from the captured pawn's
        // square for en passant, whose vector is a diagonal step); Couscous' is the classic
        // square of the other unit of the capture (the taken pawn for Anti-Circe's en
        // passant), for each walk and either colour (the mirror adapter swaps them).
        Bitboard b = kAll;
        if (rules.mars || rules.antimars) {
            // Moves that start elsewhere: not worked out.
        } else if (rules.square == SquareRule::PWC || rules.square == SquareRule::Equipollents) {
            b = empty_attacks(QUEEN, WHITE, s) | empty_attacks(KNIGHT, WHITE, s);
        } else if (rules.square == SquareRule::TakeMake && captured) {
            // Take&Make: the captured unit makes a non-capturing move of its own walk from the
            // capture square (a pawn one or two steps forward, none from its first or last
            // rank); no adapter moves that square.
            if (w == PAWN) {
                b = 0;
                const int rr = relative_rank(c, rank_of(s)), up = c == WHITE ? 8 : -8;
                if (rr != 0 && rr != 7) {
                    b |= square_bb(Square(s + up));
                    if (rr == 1) b |= square_bb(Square(s + 2 * up));
                }
            } else {
                b = empty_attacks(w, c, s);
            }
            return b;
        } else if (rules.square == SquareRule::Couscous) {
            b = 0;
            for (Color x : {WHITE, BLACK})
                for (Walk y : {KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN}) {
                    b |= square_bb(classic_rebirth_square(y, x, s));
                    if (rules.frischauf) b |= square_bb(classic_rebirth_square(y, x, s, true));
                }
        }
        return b != kAll && rules.vertical_mirror ? mirror_files(b) : b;
    }
    CaptureFacts f;
    f.unit = make_piece(c, w);
    f.capture = s;
    Bitboard b = 0;
    const Square r = rebirth_square(rules, f, w);
    if (r != SQ_NONE) b |= square_bb(r);
    if (rules.frischauf && w != PAWN && w != KING) {
        f.unit.flags = PF_PROMOTED;
        const Square p = rebirth_square(rules, f, w);
        if (p != SQ_NONE) b |= square_bb(p);
    }
    return b;
}

// Parrain's (and ContraParrain's) squares for a unit captured on s: s moved by the vector (or
// its opposite) of one move of an orthodox walk: s, a queen's line or a knight's step from s;
// for a pawn also from the squares before and behind it (en passant's capture square).
Bitboard vector_squares(Walk w, Square s) {
    Bitboard centres = square_bb(s);
    if (w == PAWN) {
        if (rank_of(s) < 7) centres |= square_bb(Square(s + 8));
        if (rank_of(s) > 0) centres |= square_bb(Square(s - 8));
    }
    Bitboard b = centres;
    for (Bitboard t = centres; t;) {
        const Square x = pop_lsb(t);
        b |= empty_attacks(QUEEN, WHITE, x) | empty_attacks(KNIGHT, WHITE, x);
    }
    return b;
}

// Whether a unit of walk w waiting for its Parrain rebirth can fill a target unit of walk
// `want`: the same walk, or a pawn reborn on its last rank, promoted.
bool waiting_fits(Walk w, Walk want) { return w == want || (w == PAWN && want != KING && want != PAWN); }

Bitboard corners_of(Color c) {
    const int home = c == WHITE ? 0 : 7;
    return square_bb(make_square(0, home)) | square_bb(make_square(7, home));
}

bool supported_occupied(Occupied o) {
    return o == Occupied::Relaxed || o == Occupied::Strict || o == Occupied::Assassin;
}

}  // namespace

std::unique_ptr<const RebirthBound> RebirthBound::make(const RuleSet& r, const Position* start) {
    if (r.atom || r.kamikaze || r.alsatian || r.hydra || r.clone || r.chameleon) return nullptr;
    if (r.turncoat || r.april) return nullptr;  // units change side; some walks are not reborn
    if (r.wait_capture) return nullptr;         // a taken unit comes back at the next capture of either side
    if (!supported_occupied(r.occupied)) return nullptr;
    if (r.reborn == Reborn::Both &&
        (r.both_capturer.clone || r.both_capturer.chameleon || !supported_occupied(r.both_capturer.occupied)))
        return nullptr;
    init_bitboards();  // the attack tables behind one_move_squares
    std::unique_ptr<RebirthBound> b(new RebirthBound());
    b->dist_.reset(new Row[kRows]);  // not initialized: each row is filled at its first use
    b->ready_.reset(new std::atomic<bool>[kRows]());
    const bool captured = r.reborn == Reborn::Captured || r.reborn == Reborn::Both;
    const bool capturer = r.reborn == Reborn::Capturer || r.reborn == Reborn::Both;
    const bool shifted = r.mars || r.antimars;
    b->captured_rebirth_ = captured;
    const bool parrain = parrain_like(r);
    b->delayed_rebirth_ = parrain;
    b->castles_from_anywhere_ = r.antimars;
    b->castles_without_king_right_ = r.mars && r.rex == Rex::Inclusive;
    b->many_removals_ = r.reborn == Reborn::Both;
    b->self_removal_ = parrain || r.occupied == Occupied::Assassin ||
                       (r.reborn == Reborn::Capturer && r.occupied == Occupied::Relaxed);
    const RuleSet cap_rules = capturer_rules(r);
    b->capturer_rebirth_ = capturer;
    b->shifted_ = shifted;
    b->promotes_ = rebirth_promotes(r);

    // tele: captured and reborn (Circe; kings only under Rex Inclusive); land: a capturer's
    // rebirth square after capturing on the square; shift: the mover's rebirth square (Mars,
    // Anti-Mars), the square its move starts from.
    SquareSets& tele = b->tele_;
    SquareSets& land = b->land_;
    SquareSets& shift = b->shift_;
    // Diagram Circe: a unit's square in `start` (its origin), whatever the capture square.
    const auto origins = diagram_origins(start);
    auto diagram = [&](const RuleSet& rules, Color c, int k, Bitboard squares) {
        if (rules.square != SquareRule::Diagram || !start) return squares;
        return rules.vertical_mirror ? mirror_files(origins[c][size_t(k)]) : origins[c][size_t(k)];
    };
    for (Color c : {WHITE, BLACK})
        for (int k = 0; k < kWalks; ++k)
            for (int s = 0; s < 64; ++s) {
                const Walk w = Walk(KING + k);
                const Bitboard own = diagram(r, c, k, rebirth_squares(r, c, w, Square(s)));
                if (captured && (w != KING || r.rex == Rex::Inclusive))
                    tele[c][k][s] = parrain && !capturer && !shifted ? vector_squares(w, Square(s)) : own;
                if (capturer)
                    land[c][k][s] = diagram(cap_rules, c, k, rebirth_squares(cap_rules, c, w, Square(s), false));
                if (shifted) shift[c][k][s] = own;
            }
    for (Color c : {WHITE, BLACK}) {
        const int home = c == WHITE ? 0 : 7;
        const Bitboard corners = corners_of(c);
        const Bitboard king_home = square_bb(make_square(4, home));
        for (int s = 0; s < 64; ++s) {
            if ((tele[c][walk_index(KING)][s] | land[c][walk_index(KING)][s]) & king_home) b->king_regains_[c] = true;
            if (land[c][walk_index(KING)][s] & king_home) b->king_regains_by_own_capture_[c] = true;
            if ((tele[c][walk_index(ROOK)][s] | land[c][walk_index(ROOK)][s]) & corners) b->rook_regains_[c] = true;
        }
    }

    return b;
}

const RebirthBound::Row& RebirthBound::row(int version, Color c, int walk, Square from) const {
    if (!captured_rebirth_) version = 0;  // no rebirth changes a distance
    const std::size_t i =
        ((std::size_t(version) * 2 + std::size_t(c)) * kWalks + std::size_t(walk)) * 64 + std::size_t(from);
    if (!ready_[i].load(std::memory_order_acquire)) {
        const std::lock_guard<std::mutex> lock(fill_);
        if (!ready_[i].load(std::memory_order_relaxed)) {
            compute_row(version, c, walk, from, dist_[i]);
            ready_[i].store(true, std::memory_order_release);
        }
    }
    return dist_[i];
}

// Breadth-first search over (walk, square) states, level by level: one own move a level; a
// captured unit's rebirth costs no move of its own (same level): none in version 0, at most
// one in version 1, any number in version 2. States are kept per number of rebirths used so
// far (0 or 1; version 2 keeps them all in plane 0).
void RebirthBound::compute_row(int version, Color c, int w0, Square from, Row& row) const {
    const Bitboard last_rank = rank_bb(c == WHITE ? 7 : 0);
    row.fill(std::uint8_t(kFar));
    using Planes = std::array<std::array<Bitboard, kWalks>, 2>;
    Planes seen{}, front{};
    auto add = [&](Planes& into, int plane, int k, Bitboard sq) {
        sq &= ~seen[plane][k];
        seen[plane][k] |= sq;
        into[plane][k] |= sq;
    };
    // A pawn arriving on its last rank: by a move it promotes; by a rebirth it promotes where
    // the rules say so, else it stands there.
    auto add_pawn = [&](Planes& into, int plane, Bitboard sq, bool by_move) {
        add(into, plane, walk_index(PAWN), sq & (by_move || !promotes_ ? ~last_rank : kAll));
        if (by_move || promotes_)
            for (Walk p : {QUEEN, ROOK, BISHOP, KNIGHT}) add(into, plane, walk_index(p), sq & last_rank);
    };
    add(front, 0, w0, square_bb(from));
    for (int level = 0; level < kFar; ++level) {
        if (version > 0) {
            // Close the level under rebirths (each square's images once).
            const int to_plane = version == 1 ? 1 : 0;
            std::array<Bitboard, kWalks> todo = front[0];
            for (bool more = true; more;) {
                more = false;
                Planes fresh{};
                for (int k = 0; k < kWalks; ++k)
                    for (Bitboard t = todo[k]; t;) {
                        const Bitboard img = tele_[c][k][pop_lsb(t)];
                        if (k == walk_index(PAWN))
                            add_pawn(fresh, to_plane, img, false);
                        else
                            add(fresh, to_plane, k, img);
                    }
                for (int p = 0; p < 2; ++p)
                    for (int k = 0; k < kWalks; ++k) front[p][k] |= fresh[p][k];
                if (version == 2) {
                    todo = fresh[0];
                    for (int k = 0; k < kWalks; ++k) more |= fresh[0][k] != 0;
                }
            }
        }
        bool any = false;
        for (int p = 0; p < 2; ++p)
            for (int k = 0; k < kWalks; ++k)
                for (Bitboard t = front[p][k]; t;) {
                    std::uint8_t& d = row[k * 64 + pop_lsb(t)];
                    d = std::min(d, std::uint8_t(level));
                    any = true;
                }
        if (!any) break;
        Planes next{};
        for (int p = 0; p < 2; ++p)
            for (int k = 0; k < kWalks; ++k) {
                const Walk w = Walk(KING + k);
                for (Bitboard t = front[p][k]; t;) {
                    const Square s = pop_lsb(t);
                    Bitboard to = one_move_squares(w, c, s, 0);
                    if (shifted_)
                        for (Bitboard f = shift_[c][k][s]; f;) to |= one_move_squares(w, c, pop_lsb(f), 0);
                    if (w == PAWN)
                        add_pawn(next, p, to, true);
                    else
                        add(next, p, k, to);
                    if (capturer_rebirth_) {
                        // The capture lands the capturer (promoted on its last rank) on its
                        // rebirth square.
                        for (Bitboard a = to; a;) {
                            const Square x = pop_lsb(a);
                            if (w == PAWN && (last_rank & square_bb(x))) {
                                for (Walk q : {QUEEN, ROOK, BISHOP, KNIGHT})
                                    add(next, p, walk_index(q), land_[c][walk_index(q)][x]);
                            } else if (w == PAWN) {
                                // En passant takes on the square behind x: the capturer is
                                // reborn as for a capture there.
                                Bitboard landed = land_[c][k][x];
                                if (relative_rank(c, rank_of(x)) == 5)
                                    landed |= land_[c][k][c == WHITE ? x - 8 : x + 8];
                                add_pawn(next, p, landed, false);
                            } else {
                                add(next, p, k, land_[c][k][x]);
                            }
                        }
                    }
                }
            }
        front = next;
    }
}

int RebirthBound::distance(Color c, Walk w, Square from, Walk as, Square to, int rebirths) const {
    if (w < KING || w > PAWN || as < KING || as > PAWN) return kFar;
    return row(std::clamp(rebirths, 0, 2), c, walk_index(w), from)[std::size_t(walk_index(as) * 64 + to)];
}

int RebirthBound::moves_needed(const Position& pos, const Board& target, Color c, int own_left, int other_left) const {
    // A unit on a target square of its own walk keeps it in some least assignment (the
    // distances are shortest paths: the triangle inequality holds), for both assignments.
    const Bitboard settled = settled_units(pos, target, c);
    std::array<const Row*, 17> free_rows{}, one_rows{}, paid_rows{};
    std::array<Walk, 17> walks{};
    int columns = 0;
    for (Bitboard b = pos.pieces(c) & ~settled; b && columns < 16; ++columns) {
        const Square s = pop_lsb(b);
        walks[columns] = pos.piece_on(s).walk;
        if (walks[columns] < KING || walks[columns] > PAWN) return 0;  // outside the model: no verdict
        free_rows[columns] = &row(2, c, walk_index(walks[columns]), s);
        one_rows[columns] = &row(1, c, walk_index(walks[columns]), s);
        paid_rows[columns] = &row(0, c, walk_index(walks[columns]), s);
    }
    // A unit waiting for its Parrain rebirth comes back anywhere with the next move of c (and
    // never without one).
    int waiting = -1;
    const Piece pending = pos.parrain_piece();
    if (!pending.empty() && pending.color == c && own_left > 0 && columns < 16) {
        waiting = columns;
        walks[columns++] = pending.walk;
    }
    std::array<AssignmentRow, 16> free_cost, one_cost, paid_cost;
    int rows = 0, target_units = popcount(settled);
    for (int t = 0; t < SQUARE_NB; ++t) {
        const Piece want = target[t];
        if (want.empty() || want.color != c || (settled & square_bb(Square(t)))) continue;
        if (++target_units > 16) return kFar;
        if (want.walk < KING || want.walk > PAWN) return 0;
        AssignmentRow& fr = free_cost[rows];
        AssignmentRow& pr = paid_cost[rows];
        AssignmentRow& or1 = one_cost[rows];
        ++rows;
        const int idx = walk_index(want.walk) * 64 + t;
        for (int i = 0; i < columns; ++i) {
            if (i == waiting) {
                fr[i] = pr[i] = or1[i] = waiting_fits(walks[i], want.walk) ? 0 : kFar;
                continue;
            }
            fr[i] = (*free_rows[i])[idx];
            or1[i] = (*one_rows[i])[idx];
            pr[i] = (*paid_rows[i])[idx];
        }
    }
    if (rows > columns) return kFar;
    int bound = min_cost_assignment(free_cost.data(), rows, columns);
    if (bound >= kFar) return kFar;
    if (captured_rebirth_ && rows > 0) {
        const int paid = min_cost_assignment(paid_cost.data(), rows, columns);
        // Each rebirth needs a capture by the other side: at most other_left in all; under
        // Parrain the unit comes back during c's next move, so the capture is one of the other
        // side's moves that c still answers. A unit reborn once saves at most one[i], reborn
        // twice or more at most any[i]; the most the captures can save is a knapsack over the
        // units (best[k]: with k captures).
        const int answered = pos.side_to_move() == c ? own_left - 1 : own_left;
        const int k_max = std::clamp(delayed_rebirth_ ? std::min(other_left, answered) : other_left, 0, 32);
        std::array<int, 33> best{};
        for (int i = 0; i < columns; ++i) {
            int one = 0, any = 0;
            for (int r = 0; r < rows; ++r) {
                one = std::max(one, paid_cost[r][i] - one_cost[r][i]);
                any = std::max(any, paid_cost[r][i] - free_cost[r][i]);
            }
            if (i == waiting) one = any = 0;
            for (int k = k_max; k >= 1; --k) {
                best[k] = std::max(best[k], best[k - 1] + one);
                if (k >= 2) best[k] = std::max(best[k], best[k - 2] + any);
            }
        }
        bound = std::max(bound, paid - best[k_max]);
        // The same limit priced (Lagrangian relaxation): for any price p >= 0 a rebirth costs
        // p, a unit's cost is min(paid, one + p, any + 2p), and the least assignment less p
        // times k_max bounds the least total with at most k_max rebirths. This still counts
        // where some units can only get home by a rebirth (paid out of reach), which the
        // knapsack above cannot. Prices 1, 2, 4 ... up to past own_left (enough to decide
        // whether own_left suffices).
        std::array<AssignmentRow, 16> priced;
        for (int p = 1; bound <= own_left && p <= 2 * std::max(own_left, 1) && p < kFar / 2; p *= 2) {
            for (int r = 0; r < rows; ++r)
                for (int i = 0; i < columns; ++i)
                    priced[r][i] = std::min({paid_cost[r][i], one_cost[r][i] + p, free_cost[r][i] + 2 * p, kFar - 1});
            bound = std::max(bound, min_cost_assignment(priced.data(), rows, columns) - p * k_max);
        }
    }
    const int castlings = this->castlings(pos, target, c, own_left, other_left, settled);
    const int spared = castlings > 0 ? std::clamp(king_way(pos, target, c), 0, castlings) : 0;
    return std::max(0, bound - spared - lift_spare(pos, target, c, own_left));
}

int RebirthBound::lift_spare(const Position& pos, const Board& target, Color c, int own_left) const {
    if (!castles_from_anywhere_ || own_left < 1) return 0;
    // Anti-Mars: a castling may lift a rook onto its corner X and leave it there ("[wRa3->a1]0-0"),
    // the only way but a capture for a rook to get there; its distances count at most two moves
    // for that (an empty board's rook reaches any square in two). The king then castles to the
    // other side, with the rook on the opposite corner Y, which needs Y's right (the lift round
    // adds a right only for the lifted rook's own corner, where it would be the partner). That
    // castling moves units off both corners, so both rights are lost, and nothing gives a right
    // back under Anti-Mars (no unit is reborn): one such castling at most in the rest of the game.
    const int home = c == WHITE ? 0 : 7;
    const Bitboard rights = pos.castling_rights();
    for (int f : {0, 7}) {
        const Piece p = target[make_square(f, home)];
        if (p.walk == ROOK && p.color == c && (rights & square_bb(make_square(7 - f, home)))) return 2;
    }
    return 0;
}

int RebirthBound::castlings(const Position& pos, const Board& target, Color c, int own_left, int other_left,
                            Bitboard settled) const {
    const int home = c == WHITE ? 0 : 7;
    const Bitboard rights = pos.castling_rights();
    int castlings = 0;
    const Piece end_home = target[make_square(4, home)];
    const bool king_ends_home = end_home.walk == KING && end_home.color == c;
    // A castling spares one move only to a rook whose moves (its path followed, through each
    // settled rook it replaces, by that rook's path) end on a rook target square no rook of c
    // stands on now: without such a square, castling spares nothing (the king's distances
    // count it as one king move, and a rook path ending on a settled square costs at least
    // its castlings).
    bool open_rook_target = false;
    for (int t = 0; t < SQUARE_NB && !open_rook_target; ++t)
        open_rook_target = target[t].walk == ROOK && target[t].color == c && !(settled & square_bb(Square(t)));
    if (!open_rook_target) {
        // Nothing to spare (Anti-Mars below lifts rooks, which this does not cover).
    } else if (king_regains_[c]) {
        // Each castling after the first needs the king's right back, by a rebirth on its home
        // square: when only the other side's captures bring it back, at most one per move of
        // the other side.
        const int now = rights & square_bb(make_square(4, home)) ? 1 : 0;
        castlings = king_regains_by_own_capture_[c] ? own_left : std::min(own_left, now + other_left);
    } else if ((rights & square_bb(make_square(4, home))) && !king_ends_home) {
        // A king that ends at home and is never reborn there walks back after castling: at
        // least the move the castling spared (the king's distances count castling as one
        // king move, so the rook's free step is all it saves).
        castlings = (rights & corners_of(c)) || rook_regains_[c] ? 1 : 0;
    }
    if (castles_from_anywhere_) {
        // Anti-Mars: the king castles from its rebirth square without a right, with a rook
        // lifted onto its empty corner. A rook's moves after its last castling start on its
        // castled square, at most one move from anywhere it could reach without castling
        // (its non-captures start on a corner), so all of a rook's castlings spare at most
        // one move (the king's distances count castling as one king move): at most one a
        // rook, or a pawn that may promote to one, off its target.
        int rooks = 0;
        for (Bitboard b = pos.pieces(c, ROOK) | pos.pieces(c, PAWN); b;) {
            const Square s = pop_lsb(b);
            if (!(settled & square_bb(s))) ++rooks;
        }
        castlings = std::max(castlings, std::min(own_left, rooks));
    } else if (castles_without_king_right_ && open_rook_target) {
        // Mars Circe with Rex Inclusive: the king castles from its empty rebirth square
        // without its own right, once a corner's right.
        castlings = std::max(castlings, std::min(own_left, popcount(rights & corners_of(c))));
    }
    return castlings;
}

int RebirthBound::king_way(const Position& pos, const Board& target, Color c) const {
    // Each castling is also a move of the king (the king's distances count it as one), and
    // after its last castling the king stands on a castled square: with N >= 1 castlings its
    // moves are at least N plus its distance from there (r), the others' at least their
    // distances, so the castlings spare at most the king's distance (d, without rebirths:
    // no less than in any of the assignments) less r.
    const Bitboard kings = pos.pieces(c, KING);
    int to = -1;
    for (int t = 0; t < SQUARE_NB; ++t)
        if (target[t].walk == KING && target[t].color == c) to = t;
    if (popcount(kings) != 1 || to < 0) return kFar;
    const int home = c == WHITE ? 0 : 7;
    const std::size_t idx = std::size_t(walk_index(KING) * 64 + to);
    const int d = row(0, c, walk_index(KING), lsb(kings))[idx];
    const int r = std::min(row(2, c, walk_index(KING), make_square(2, home))[idx],
                           row(2, c, walk_index(KING), make_square(6, home))[idx]);
    return d - r;
}

bool RebirthBound::surplus_possible(const Position& pos, const Board& target, Color c, int own_left,
                                    int other_left) const {
    if (many_removals_) return true;
    int surplus = popcount(pos.pieces(c));
    const Piece pending = pos.parrain_piece();
    if (!pending.empty() && pending.color == c && own_left > 0) ++surplus;  // back with c's next move
    for (const Piece& p : target)
        if (!p.empty() && p.color == c) --surplus;
    return surplus <= other_left + (self_removal_ ? own_left : 0);
}

RebirthProgress::RebirthProgress(const RebirthBound& bound, const Position& pos, const Board& target, Color c,
                                 int own_left, int other_left)
    : bound_(bound), pos_(pos), c_(c) {
    const Bitboard settled = settled_units(pos, target, c);
    for (Bitboard b = pos.pieces(c) & ~settled; b && columns_ < 16; ++columns_) {
        const Square s = pop_lsb(b);
        const Walk w = pos.piece_on(s).walk;
        if (w < KING || w > PAWN) return;
        squares_[size_t(columns_)] = s;
        walks_[size_t(columns_)] = w;
    }
    // A unit waiting for its Parrain rebirth (back with this move, anywhere): a column of cost
    // 0 to every target unit it can be, as in moves_needed. After the move it stands somewhere
    // (costs no lower) or is gone (its column dropped): its price stays valid either way.
    const Piece pending = pos.parrain_piece();
    if (!pending.empty() && pending.color == c && own_left > 0) {
        if (columns_ >= 16 || pending.walk < KING || pending.walk > PAWN) return;
        waiting_ = columns_;
        squares_[size_t(columns_)] = SQ_NONE;
        walks_[size_t(columns_++)] = pending.walk;
    }
    int target_units = popcount(settled);
    for (int t = 0; t < SQUARE_NB; ++t) {
        const Piece want = target[t];
        if (want.empty() || want.color != c || (settled & square_bb(Square(t)))) continue;
        if (++target_units > 16 || want.walk < KING || want.walk > PAWN) return;
        wanted_[size_t(rows_++)] = {want.walk, Square(t)};
    }
    if (rows_ > columns_) return;
    std::array<AssignmentRow, 16> cost;
    for (int r = 0; r < rows_; ++r)
        for (int i = 0; i < columns_; ++i) cost[size_t(r)][size_t(i)] = free_cost(i, wanted_[size_t(r)]);
    if (min_cost_assignment(cost.data(), rows_, columns_, &duals_) >= kFar) return;
    dual_sum_ = raise_column_prices(cost.data(), rows_, columns_, duals_);
    // Castlings: as many as the bound could count after the move. A unit that is not settled
    // settles no fewer by moving; a settled one leaving its square may open a rook target
    // (or, under Anti-Mars, count as one more rook): counted as if no unit were settled.
    castlings_ = bound.castlings(pos, target, c, own_left, other_left, settled);
    castlings_leaving_ = bound.castlings(pos, target, c, own_left, other_left, 0);  // no fewer
    // What they spare: at most the king's way. A king's step is one square, so its distance
    // grows by one at most (under Mars and Anti-Mars, whose moves start elsewhere, by no known
    // amount).
    king_way_ = castlings_leaving_ > 0 ? bound.king_way(pos, target, c) : int(kFar);
    king_way_after_step_ = bound.shifted_ || king_way_ >= kFar ? int(kFar) : king_way_ + 1;
    lift_spare_ = bound.lift_spare(pos, target, c, own_left);  // rights only shrink
    valid_ = true;
}

int RebirthProgress::free_cost(int column, std::pair<Walk, Square> unit) const {
    const auto [want, t] = unit;
    const Walk w = walks_[size_t(column)];
    if (column == waiting_) return waiting_fits(w, want) ? 0 : int(kFar);
    return bound_.row(2, c_, w - KING, squares_[size_t(column)])[std::size_t((want - KING) * 64 + t)];
}

int RebirthProgress::need_after(Square from, Square to) const {
    if (!valid_) return 0;
    const Walk walk = pos_.piece_on(from).walk;
    if (walk < KING || walk > PAWN) return 0;
    int j = 0;
    while (j < columns_ && squares_[size_t(j)] != from) ++j;
    const bool settled = j == columns_;
    if (settled && columns_ >= 16) return 0;
    const RebirthBound::Row& after = bound_.row(2, c_, walk - KING, to);
    int sum = dual_sum_, column = 0;
    if (settled) {
        // It leaves a target square of its walk: that square is one more row, priced as the
        // other columns allow.
        const std::size_t idx = std::size_t((walk - KING) * 64 + from);
        int price = kFar;
        for (int i = 0; i < columns_; ++i)
            price = std::min(price, free_cost(i, {walk, from}) - duals_.column[size_t(i)]);
        sum += price;
        column = std::min(column, int(after[idx]) - price);
    } else {
        sum -= duals_.column[size_t(j)];
    }
    for (int r = 0; r < rows_; ++r) {
        const auto [want, t] = wanted_[size_t(r)];
        column = std::min(column, int(after[std::size_t((want - KING) * 64 + t)]) - duals_.row[size_t(r)]);
    }
    // A unit reborn with the move may bring back one castling right (a king or rook at home)
    // or, under Anti-Mars, one more rook: one castling more at most.
    const int spared =
        std::clamp(walk == KING ? king_way_after_step_ : king_way_, 0, settled ? castlings_leaving_ : castlings_) +
        (waiting_ >= 0 ? 1 : 0) + lift_spare_;
    return std::clamp(sum + column - spared, 0, int(kFar));
}

int RebirthBoundCache::moves_needed(const Position& pos, Color c, int own_left, int other_left) {
    constexpr std::size_t kSize = std::size_t(1) << 16;
    std::array<Bitboard, 9> key;
    for (int w = 0; w < 6; ++w) key[size_t(w)] = pos.pieces(c, Walk(KING + w));
    key[6] = pos.pieces(c);
    const Piece pending = pos.parrain_piece();
    const Bitboard waiting = !pending.empty() && pending.color == c ? Bitboard(pending.walk) + 1 : 0;
    // Only c's rights count (castlings, king_way: squares of c's home rank), and the side to
    // move only under Parrain (the captures c still answers).
    key[7] = pos.castling_rights() & rank_bb(relative_rank(c, 0));
    const Bitboard mover = bound_.delayed_rebirth() ? Bitboard(pos.side_to_move()) + 1 : 0;
    key[8] = Bitboard(std::uint16_t(own_left)) | Bitboard(std::uint16_t(other_left)) << 16 | waiting << 32 |
             Bitboard(c) << 48 | mover << 52;
    if (!entries_) entries_ = zeroed_table<Entry>(kSize);
    Entry& e = entries_.get()[cache_slot(key, kSize)];
    if (e.stored > 0 && e.key == key) return e.stored - 1;
    const int value = bound_.moves_needed(pos, target_, c, own_left, other_left);
    e.key = key;
    e.stored = value + 1;
    return value;
}

}  // namespace rebirth
