#include "help_pictures.h"

#include <algorithm>
#include <array>
#include <set>
#include <vector>

#include "rebirth/bitboard.h"
#include "rebirth/distance.h"
#include "rebirth/goal.h"
#include "rebirth/movegen.h"
#include "rebirth/setup.h"

namespace rebirth {

namespace {

// The walk a unit of a picture has in the final position: its own (a pawn staying a pawn), a
// promoted queen, rook or bishop (counted as a queen, which never needs more moves nor
// attacks less), a promoted knight, or any walk (a defending unit that blocks a flight).
enum class Form : std::uint8_t { Same, PromotedLine, PromotedKnight, Any };

// Fewest moves (empty board, distance.h) for a unit now of walk w and colour c on s to stand
// on t in form f; kFar when it never can.
int distance_to(Walk w, Color c, Square s, Square t, Form f) {
    auto at = [t](const std::uint8_t* row) { return row ? int(row[t]) : kFar; };
    if (w != PAWN) {
        const bool line = w == QUEEN || w == ROOK || w == BISHOP;
        if ((f == Form::PromotedLine && !line) || (f == Form::PromotedKnight && w != KNIGHT)) return kFar;
        return at(empty_distances_from(w, c, s));
    }
    switch (f) {
        case Form::Same:
            return at(empty_distances_as(PAWN, c, s, PAWN));
        case Form::PromotedLine:
            return at(empty_distances_as(PAWN, c, s, QUEEN));
        case Form::PromotedKnight:
            return at(empty_distances_as(PAWN, c, s, KNIGHT));
        case Form::Any:
            break;
    }
    return std::min({at(empty_distances_as(PAWN, c, s, PAWN)), at(empty_distances_as(PAWN, c, s, QUEEN)),
                     at(empty_distances_as(PAWN, c, s, KNIGHT))});
}

// The walk whose empty-board attacks a unit of walk w has in form f.
Walk attack_walk(Walk w, Form f) {
    if (f == Form::PromotedLine) return QUEEN;
    if (f == Form::PromotedKnight) return KNIGHT;
    return w;
}

struct Unit {
    Square square;
    Walk walk;
    Color color;
};

struct Target {
    int unit;
    Square square;
    Form form;
    friend bool operator<(const Target& a, const Target& b) { return a.unit < b.unit; }
};

struct Picture {
    std::vector<Target> targets;  // the mated king's first
    Bitboard empty = 0;           // squares that must be empty
    // The checking unit when it must make the mating move itself: it attacks the king along
    // no square that another unit could leave (a pawn, a knight, a line piece next to the
    // king). Before the mating move the mated side is not in check (its own last move, or
    // pass, would have left it there), so such a checker standing on its square must still
    // leave it and come back: two moves. -1 otherwise.
    int moving_checker = -1;
};

// The moves a picture unit needs: its distance, or 2 for a checker that must move last and
// already stands on its square.
int picture_distance(const Picture& p, int id, Walk w, Color c, Square s, Square t, Form f) {
    const int d = distance_to(w, c, s, t, f);
    return d == 0 && id == p.moving_checker ? 2 : d;
}

// Castling moves two units with one move: one move more for a side that may still castle.
int castling_bonus(const Position& pos, Color c) {
    return (pos.castling_rights() & rank_bb(c == WHITE ? 0 : 7)) ? 1 : 0;
}

// Moves (of both sides) that may vacate a square besides their departure square, within
// `half_moves`: castling (the rook's square) and en passant (the taken pawn's square, which
// matters only for squares of `empty` that hold pawns on the en-passant ranks).
int extra_vacated(const Position& pos, Bitboard empty, int half_moves) {
    int extra = 0;
    for (Color c : {WHITE, BLACK})
        if (pos.castling_rights() & rank_bb(c == WHITE ? 0 : 7)) ++extra;
    const Bitboard ep_pawns = empty & pos.pieces(PAWN) & (rank_bb(3) | rank_bb(4));
    return extra + std::min(popcount(ep_pawns), half_moves / 2);
}

// Enumerates the mate pictures of a position (see help_pictures.h) within the budgets of
// the attacker's and the defender's moves, calling `found` once per distinct picture.
class PictureMaker {
  public:
    PictureMaker(const Position& pos, const std::vector<Unit>& units, Color attacker, int attacker_moves,
                 int defender_moves)
        : pos_(pos), units_(units), attacker_(attacker), a_moves_(attacker_moves), d_moves_(defender_moves) {
        for (int i = 0; i < int(units.size()); ++i) {
            if (units[i].color == attacker)
                attackers_.push_back(i);
            else if (units[i].walk == KING)
                king_ = i;
            else
                defenders_.push_back(i);
        }
        used_.assign(units.size(), false);
    }

    // Calls found(picture) for each picture; false when there were more than `cap`.
    template <class F>
    bool run(F&& found, std::size_t cap) {
        found_ = [&](const Picture& p) { found(p); };
        cap_ = cap;
        const Unit& king = units_[king_];
        const std::uint8_t* walk = empty_distances_from(KING, king.color, king.square);
        for (int k = 0; k < 64 && !over_; ++k) {
            if (walk[k] > d_moves_) continue;
            k_ = Square(k);
            flights_.clear();
            for (Bitboard b = king_attacks(k_); b;) flights_.push_back(pop_lsb(b));
            picture_.targets = {{king_, k_, Form::Same}};
            used_[king_] = true;
            d_cost_ = walk[k];
            a_cost_ = 0;
            placed_ = square_bb(k_);
            picture_.empty = 0;
            checks();
            used_[king_] = false;
        }
        return !over_;
    }

  private:
    // The forms an attacking unit may have: its own, and a pawn's promotions.
    static int forms_of(const Unit& u, Form* out) {
        out[0] = Form::Same;
        if (u.walk != PAWN) return 1;
        out[1] = Form::PromotedLine;
        out[2] = Form::PromotedKnight;
        return 3;
    }

    // Every checking unit of the attacker (not its king) on every square attacking k.
    void checks() {
        for (int id : attackers_) {
            const Unit& u = units_[id];
            if (u.walk == KING) continue;
            Form forms[3];
            const int nf = forms_of(u, forms);
            for (int fi = 0; fi < nf; ++fi) {
                for (Bitboard b = empty_attackers(attack_walk(u.walk, forms[fi]), u.color, k_); b;) {
                    const Square c = pop_lsb(b);
                    const Bitboard line = between_bb(c, k_);
                    picture_.moving_checker = line ? -1 : id;
                    const int d = picture_distance(picture_, id, u.walk, u.color, u.square, c, forms[fi]);
                    if (d > a_moves_) continue;
                    place(id, c, forms[fi], d, 0, line);
                    flight(0);
                    unplace(d, 0, line);
                }
            }
        }
    }

    void place(int id, Square s, Form f, int a_cost, int d_cost, Bitboard line) {
        picture_.targets.push_back({id, s, f});
        used_[id] = true;
        placed_ |= square_bb(s);
        a_cost_ += a_cost;
        d_cost_ += d_cost;
        saved_empty_.push_back(picture_.empty);
        picture_.empty |= line;
    }
    void unplace(int a_cost, int d_cost, Bitboard) {
        const Target t = picture_.targets.back();
        picture_.targets.pop_back();
        used_[t.unit] = false;
        placed_ &= ~square_bb(t.square);
        a_cost_ -= a_cost;
        d_cost_ -= d_cost;
        picture_.empty = saved_empty_.back();
        saved_empty_.pop_back();
    }

    // Whether a placed attacking unit attacks f, no other placed unit standing between (the
    // mated king excepted: a checking line goes on behind it). Units placed later may still
    // block it: the picture is then weaker, never wrong, as it asks nothing for f.
    bool covered(Square f) const {
        for (const Target& t : picture_.targets) {
            const Unit& u = units_[t.unit];
            if (u.color != attacker_) continue;
            if ((empty_attacks(attack_walk(u.walk, t.form), u.color, t.square) & square_bb(f)) &&
                !(between_bb(t.square, f) & placed_ & ~square_bb(k_)))
                return true;
        }
        return false;
    }

    // Flights from index i on: each covered already, blocked by a defending unit, or attacked
    // by one more attacking unit.
    void flight(std::size_t i) {
        if (over_) return;
        if (i == flights_.size()) {
            finish();
            return;
        }
        const Square f = flights_[i];
        if (covered(f)) {
            flight(i + 1);
            return;
        }
        // A defending unit on f.
        if (!(placed_ & square_bb(f)) && !(picture_.empty & square_bb(f))) {
            for (int id : defenders_) {
                if (used_[id]) continue;
                const Unit& u = units_[id];
                const int d = distance_to(u.walk, u.color, u.square, f, Form::Any);
                if (d_cost_ + d > d_moves_) continue;
                place(id, f, Form::Any, 0, d, 0);
                flight(i + 1);
                unplace(0, d, 0);
            }
        }
        // One more attacking unit attacking f (along a line through k when it checks too).
        for (int id : attackers_) {
            if (used_[id]) continue;
            const Unit& u = units_[id];
            Form forms[3];
            const int nf = forms_of(u, forms);
            for (int fi = 0; fi < nf; ++fi) {
                for (Bitboard b = empty_attackers(attack_walk(u.walk, forms[fi]), u.color, f); b;) {
                    const Square g = pop_lsb(b);
                    if ((placed_ | picture_.empty) & square_bb(g)) continue;
                    if (u.walk == KING && (king_attacks(k_) & square_bb(g))) continue;
                    const Bitboard line = between_bb(g, f) & ~square_bb(k_);
                    if (line & placed_) continue;
                    const int d = distance_to(u.walk, u.color, u.square, g, forms[fi]);
                    if (a_cost_ + d > a_moves_) continue;
                    place(id, g, forms[fi], d, 0, line);
                    flight(i + 1);
                    unplace(d, 0, line);
                }
            }
        }
    }

    // A complete picture: the squares that must be empty and hold units now each need a move.
    void finish() {
        const int openings = popcount(picture_.empty & pos_.pieces());
        if (openings > a_moves_ + d_moves_ + extra_vacated(pos_, picture_.empty, a_moves_ + d_moves_)) return;
        if (!parries_preventable()) return;
        Picture p = picture_;
        std::sort(p.targets.begin(), p.targets.end());
        std::vector<int> key;
        key.push_back(int(p.empty & 0xffffffff));
        key.push_back(int(p.empty >> 32));
        key.push_back(p.moving_checker);
        for (const Target& t : p.targets) key.insert(key.end(), {t.unit, int(t.square), int(t.form)});
        if (!seen_.insert(std::move(key)).second) return;
        if (seen_.size() > cap_) {
            over_ = true;
            return;
        }
        found_(p);
    }

    // The walk a placed unit has in every final position fitting the picture; NO_WALK when
    // it may have several (a pawn that may promote).
    Walk final_walk(const Target& t) const {
        const Unit& u = units_[t.unit];
        if (u.walk != PAWN) return u.walk;
        if (t.form == Form::PromotedKnight) return KNIGHT;
        if (t.form == Form::PromotedLine) return NO_WALK;
        if (t.form == Form::Same) return PAWN;
        // The moves this unit may take: its side's budget less the other units' costs.
        const int budget = (u.color == attacker_ ? a_moves_ - a_cost_ : d_moves_ - d_cost_) +
                           distance_to(PAWN, u.color, u.square, t.square, Form::Any);
        const bool promoted = std::min(distance_to(PAWN, u.color, u.square, t.square, Form::PromotedLine),
                                       distance_to(PAWN, u.color, u.square, t.square, Form::PromotedKnight)) <= budget;
        const bool pawn = distance_to(PAWN, u.color, u.square, t.square, Form::Same) <= budget;
        return promoted ? NO_WALK : pawn ? PAWN : NO_WALK;
    }

    // Whether some free unit of colour c, in some form, passes accept(unit, form, moves left to
    // its side).
    template <class Accept>
    bool free_unit_can(Color c, Accept&& accept) const {
        const int left = c == attacker_ ? a_moves_ - a_cost_ : d_moves_ - d_cost_;
        for (int id = 0; id < int(units_.size()); ++id) {
            const Unit& u = units_[id];
            if (used_[id] || u.color != c) continue;
            Form forms[3];
            const int nf = u.color == attacker_ ? forms_of(u, forms) : (forms[0] = Form::Any, 1);
            for (int fi = 0; fi < nf; ++fi)
                if (accept(u, forms[fi], left)) return true;
        }
        return false;
    }

    // Whether a free unit of colour c can stand on one of `squares` in time.
    bool free_unit_on(Color c, Bitboard squares) const {
        return free_unit_can(c, [&](const Unit& u, Form f, int left) {
            for (Bitboard b = squares & ~picture_.empty; b;)
                if (distance_to(u.walk, u.color, u.square, pop_lsb(b), f) <= left) return true;
            return false;
        });
    }

    // Whether a free attacking unit can attack `target` in time from a square whose line to
    // it holds no placed unit but those of `through`; with `pin_through` set, only along a
    // line that passes that square (a pin).
    bool free_attacker_of(Square target, Bitboard through, Square pin_through = SQ_NONE) const {
        return free_unit_can(attacker_, [&](const Unit& u, Form f, int left) {
            const Walk w = attack_walk(u.walk, f);
            if (w == KING && pin_through != SQ_NONE) return false;
            if (w == KING && target == k_) return false;  // kings never give check
            for (Bitboard b = empty_attackers(w, u.color, target) & ~placed_ & ~picture_.empty; b;) {
                const Square g = pop_lsb(b);
                const Bitboard line = between_bb(g, target);
                if (pin_through != SQ_NONE && !(line & square_bb(pin_through))) continue;
                if (line & placed_ & ~through) continue;
                if (distance_to(u.walk, u.color, u.square, g, f) <= left) return true;
            }
            return false;
        });
    }

    // The placed units alone: the mated side's legal moves there parry the check; each must
    // be impossible in the final position, which only free units can bring about: standing
    // in the move's way or on its arrival square, pinning the moving unit, giving a second
    // check, or (a king move) guarding the arrival square. False when some parry has no
    // such free unit within the budgets left (the picture then fits no final mate).
    bool parries_preventable() const {
        Setup setup;
        for (const Target& t : picture_.targets) {
            const Walk w = final_walk(t);
            if (w == NO_WALK) return true;  // walks not known: no verdict
            setup.board[t.square] = make_piece(units_[t.unit].color, w);
        }
        const Color defender = ~attacker_;
        setup.side_to_move = defender;
        Position board;
        try {
            SetupRules kingless;
            kingless.require_white_king = kingless.require_black_king = false;
            board.set(setup, kingless);
        } catch (...) {
            return true;
        }
        MoveList parries;
        generate_legal(board, parries);
        for (const Move& r : parries) {
            if (r.kind == MoveKind::EnPassant) continue;
            const Bitboard to = square_bb(r.to);
            const bool to_empty = board.empty(r.to);
            bool stopped = false;
            if (r.from == k_) {
                stopped = free_attacker_of(r.to, square_bb(k_)) || (to_empty && free_unit_on(defender, to));
            } else {
                const bool push = board.piece_on(r.from).walk == PAWN && (r.from % 8) == (r.to % 8);
                const Bitboard path = between_bb(r.from, r.to);
                stopped = free_attacker_of(k_, 0) || free_attacker_of(k_, square_bb(r.from), r.from) ||
                          (path && (free_unit_on(defender, path) || free_unit_on(attacker_, path))) ||
                          (to_empty && free_unit_on(defender, to)) || (push && to_empty && free_unit_on(attacker_, to));
            }
            if (!stopped) return false;
        }
        return true;
    }

    const Position& pos_;
    const std::vector<Unit>& units_;
    Color attacker_;
    int a_moves_, d_moves_;
    std::vector<int> attackers_, defenders_;
    int king_ = -1;
    std::vector<bool> used_;
    Square k_ = SQ_NONE;
    std::vector<Square> flights_;
    Picture picture_;
    std::vector<Bitboard> saved_empty_;
    Bitboard placed_ = 0;
    int a_cost_ = 0, d_cost_ = 0;
    std::set<std::vector<int>> seen_;
    std::size_t cap_ = 0;
    bool over_ = false;
    std::function<void(const Picture&)> found_;
};

// The help play towards one picture: every move keeps both sides' budgets (the distances of
// their picture units to their squares) and the openings within the moves left.
class PictureSearch {
  public:
    PictureSearch(const Position& root, const std::vector<Unit>& units, Color goal_side, MateGuide& guide,
                  const std::function<void()>& visit)
        : root_(root), units_(units), goal_side_(goal_side), guide_(guide), visit_(visit) {}

    // Searches picture p: help play of `len` half-moves, or (series) `len` moves of the
    // side to move, the goal side passing, then the goal side's mating move.
    void run(const Picture& p, int len, bool series) {
        series_ = series;
        picture_ = p;
        target_.assign(units_.size(), -1);
        form_.assign(units_.size(), Form::Same);
        for (const Target& t : p.targets) {
            target_[t.unit] = t.square;
            form_[t.unit] = t.form;
        }
        empty_ = p.empty;
        constrained_.clear();
        for (int i = 0; i < int(units_.size()); ++i)
            if (target_[i] >= 0) constrained_.push_back(i);
        id_at_.fill(-1);
        sq_of_.assign(units_.size(), SQ_NONE);
        for (int i = 0; i < int(units_.size()); ++i) {
            id_at_[units_[i].square] = i;
            sq_of_[i] = units_[i].square;
        }
        memo_.clear();
        Position pos = root_;
        if (feasible(pos, len)) series ? series_search(pos, len) : search(pos, len);
    }

  private:
    // The moves of colour c among the `remaining` half-moves, pos's side to move first.
    int moves_of(const Position& pos, Color c, int remaining) const {
        if (series_) return c == goal_side_ ? 1 : remaining;
        return pos.side_to_move() == c ? (remaining + 1) / 2 : remaining / 2;
    }

    int unit_distance(const Position& pos, int id) const {
        const Square s = sq_of_[id];
        if (s == SQ_NONE) return kFar;
        const Piece p = pos.piece_on(s);
        return picture_distance(picture_, id, p.walk, p.color, s, Square(target_[id]), form_[id]);
    }

    int need(const Position& pos, Color c) const {
        int sum = 0;
        for (int i = 0; i < int(units_.size()); ++i)
            if (target_[i] >= 0 && units_[i].color == c) sum += unit_distance(pos, i);
        return sum;
    }

    bool feasible(const Position& pos, int remaining) const {
        const int w = moves_of(pos, WHITE, remaining), b = moves_of(pos, BLACK, remaining);
        if (need(pos, WHITE) > w + castling_bonus(pos, WHITE) || need(pos, BLACK) > b + castling_bonus(pos, BLACK))
            return false;
        const int openings = popcount(empty_ & pos.pieces());
        return openings <= remaining + extra_vacated(pos, empty_, remaining);
    }

    // Moves the unit ids along with move m of `mover` (before pos.do_move); returns the id
    // of the unit taken (-1: none) and sets the rook's squares of castling.
    struct Step {
        int taken = -1;
        Square taken_on = SQ_NONE;
        Square rook_from = SQ_NONE, rook_to = SQ_NONE;
    };
    Step apply(const Position& pos, const Move& m, Color mover) {
        Step s;
        if (m.kind == MoveKind::Castling) {
            const int rank = m.from / 8;
            const bool short_side = m.to % 8 > m.from % 8;
            s.rook_from = Square(rank * 8 + (short_side ? 7 : 0));
            s.rook_to = Square(rank * 8 + (short_side ? 5 : 3));
        } else {
            const Square cs = capture_square(m, mover);
            if (!pos.empty(cs) && pos.piece_on(cs).color != mover) {
                s.taken = id_at_[cs];
                s.taken_on = cs;
            }
        }
        if (s.taken >= 0) {
            sq_of_[s.taken] = SQ_NONE;
            id_at_[s.taken_on] = -1;
        }
        const int id = id_at_[m.from];
        id_at_[m.from] = -1;
        if (s.rook_from != SQ_NONE) {
            const int rook = id_at_[s.rook_from];
            id_at_[s.rook_from] = -1;
            id_at_[s.rook_to] = rook;
            if (rook >= 0) sq_of_[rook] = s.rook_to;
        }
        id_at_[m.to] = id;
        if (id >= 0) sq_of_[id] = m.to;
        return s;
    }
    void revert(const Move& m, const Step& s) {
        const int id = id_at_[m.to];
        id_at_[m.to] = -1;
        if (s.rook_from != SQ_NONE) {
            const int rook = id_at_[s.rook_to];
            id_at_[s.rook_to] = -1;
            id_at_[s.rook_from] = rook;
            if (rook >= 0) sq_of_[rook] = s.rook_from;
        }
        id_at_[m.from] = id;
        if (id >= 0) sq_of_[id] = m.from;
        if (s.taken >= 0) {
            id_at_[s.taken_on] = s.taken;
            sq_of_[s.taken] = s.taken_on;
        }
    }

    // Whether some play of `remaining` half-moves from pos (feasible) ends in mate; records
    // pos in the guide when one does.
    bool search(Position& pos, int remaining) {
        visit_();
        memo_key(pos, remaining);
        const int memo = memo_.find(memo_key_);
        if (memo >= 0) return memo == 1;
        bool found = false;
        if (remaining == 1) {
            found = pos.side_to_move() == goal_side_ && goal_reachable_in_one(pos, Goal::Mate);
        } else {
            const Color mover = pos.side_to_move();
            const int slack = moves_of(pos, mover, remaining) + castling_bonus(pos, mover) - need(pos, mover);
            MoveList list;
            generate_legal(pos, list);
            for (const Move& m : list) {
                const int id = id_at_[m.from];
                if (slack == 0 && m.kind != MoveKind::Castling) {
                    // Every move must bring a unit of the picture nearer.
                    if (id < 0 || target_[id] < 0) continue;
                    const Walk after = m.kind == MoveKind::Promotion ? m.promotion : pos.piece_on(m.from).walk;
                    if (picture_distance(picture_, id, after, mover, m.to, Square(target_[id]), form_[id]) >=
                        unit_distance(pos, id))
                        continue;
                }
                const Step s = apply(pos, m, mover);
                if (s.taken < 0 || target_[s.taken] < 0) {
                    UndoInfo u;
                    pos.do_move(m, u);
                    // A move of the goal side that mates before the end ends the play there.
                    if (!(mover == goal_side_ && goal_reached(pos, u, Goal::Mate)) && feasible(pos, remaining - 1) &&
                        search(pos, remaining - 1))
                        found = true;
                    pos.undo_move(m, u);
                }
                revert(m, s);
            }
            memo_key(pos, remaining);
        }
        memo_.insert(memo_key_, found ? 1 : 0);
        if (found) {
            guide_key(pos, remaining, key_);
            guide_.good.insert(key_);
        }
        return found;
    }

    // Series play: `remaining` moves of the side to move (the goal side passing, never left
    // in check), then the goal side's mating move. Records pos in the guide when one mates.
    bool series_search(Position& pos, int remaining) {
        visit_();
        memo_key(pos, remaining);
        const int memo = memo_.find(memo_key_);
        if (memo >= 0) return memo == 1;
        bool found = false;
        const Color mover = pos.side_to_move();
        const int slack = remaining + castling_bonus(pos, mover) - need(pos, mover);
        MoveList list;
        generate_legal(pos, list);
        for (const Move& m : list) {
            const int id = id_at_[m.from];
            if (slack == 0 && m.kind != MoveKind::Castling) {
                if (id < 0 || target_[id] < 0) continue;
                const Walk after = m.kind == MoveKind::Promotion ? m.promotion : pos.piece_on(m.from).walk;
                if (picture_distance(picture_, id, after, mover, m.to, Square(target_[id]), form_[id]) >=
                    unit_distance(pos, id))
                    continue;
            }
            const Step s = apply(pos, m, mover);
            if (s.taken < 0 || target_[s.taken] < 0) {
                UndoInfo u;
                pos.do_move(m, u);
                if (remaining == 1) {
                    if (goal_reachable_in_one(pos, Goal::Mate)) found = true;
                } else if (!pos.in_check()) {
                    Position next = pos;
                    next.set_side_to_move_for_analysis(mover);
                    if (feasible(next, remaining - 1) && series_search(next, remaining - 1)) found = true;
                }
                pos.undo_move(m, u);
            }
            revert(m, s);
        }
        memo_key(pos, remaining);
        memo_.insert(memo_key_, found ? 1 : 0);
        if (found) {
            guide_key(pos, remaining, key_);
            guide_.good.insert(key_);
        }
        return found;
    }

    // The memo's key: the guide key and the squares of the picture's units (positions alike
    // but for which of two alike units stands where differ in their budgets).
    void memo_key(const Position& pos, int remaining) {
        guide_key(pos, remaining, memo_key_);
        for (int id : constrained_) memo_key_.push_back(char(sq_of_[id] == SQ_NONE ? 64 : sq_of_[id]));
    }

    const Position& root_;
    const std::vector<Unit>& units_;
    Color goal_side_;
    MateGuide& guide_;
    const std::function<void()>& visit_;
    std::vector<int> target_;
    std::vector<Form> form_;
    Bitboard empty_ = 0;
    std::array<int, 64> id_at_{};
    std::vector<Square> sq_of_;
    std::vector<int> constrained_;
    Picture picture_;
    bool series_ = false;
    ExactSet memo_;
    std::string key_, memo_key_;
};

// Whether every demand of picture a is one of b's (then each play fitting b fits a).
bool demands_subset(const Picture& a, const Picture& b) {
    if ((a.empty & ~b.empty) || a.targets.size() > b.targets.size()) return false;
    if (a.moving_checker >= 0 && a.moving_checker != b.moving_checker) return false;
    std::size_t j = 0;
    for (const Target& t : a.targets) {  // both sorted by unit
        while (j < b.targets.size() && b.targets[j].unit < t.unit) ++j;
        if (j == b.targets.size() || b.targets[j].unit != t.unit || b.targets[j].square != t.square ||
            b.targets[j].form != t.form)
            return false;
    }
    return true;
}

// The pictures no other picture's demands are a part of (searching those finds every play
// the others would), in their first order.
std::vector<Picture> minimal_pictures(std::vector<Picture> all) {
    std::vector<std::size_t> order(all.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        return all[x].targets.size() + popcount(all[x].empty) < all[y].targets.size() + popcount(all[y].empty);
    });
    std::vector<bool> keep(all.size(), false);
    std::vector<std::size_t> kept;
    for (std::size_t i : order) {
        bool covered = false;
        for (std::size_t j : kept)
            if (demands_subset(all[j], all[i])) {
                covered = true;
                break;
            }
        if (covered) continue;
        kept.push_back(i);
        keep[i] = true;
    }
    std::vector<Picture> out;
    for (std::size_t i = 0; i < all.size(); ++i)
        if (keep[i]) out.push_back(std::move(all[i]));
    return out;
}

}  // namespace

void guide_key(const Position& pos, int remaining, std::string& out) {
    pos.exact_key(out);
    out.push_back(char(remaining));
}

bool build_mate_guide(const Position& root, int len, bool series, Color goal_side, MateGuide& guide,
                      const std::function<void()>& visit, std::size_t max_pictures) {
    const Color defender = ~goal_side;
    if (root.has_rules() || root.has_fairy() || root.king_square(defender) == SQ_NONE || len < 1) return false;
    std::vector<Unit> units;
    for (Bitboard b = root.pieces(); b;) {
        const Square s = pop_lsb(b);
        units.push_back({s, root.piece_on(s).walk, root.piece_on(s).color});
    }
    if (series && root.side_to_move() == goal_side) return false;
    const int a_moves = series ? 1 : root.side_to_move() == goal_side ? (len + 1) / 2 : len / 2;
    const int d_moves = series ? len : len - a_moves;
    std::vector<Picture> all;
    PictureMaker maker(root, units, goal_side, a_moves + castling_bonus(root, goal_side),
                       d_moves + castling_bonus(root, defender));
    if (!maker.run([&](const Picture& p) { all.push_back(p); }, max_pictures)) return false;
    const std::size_t made = all.size();
    const std::vector<Picture> pictures = minimal_pictures(std::move(all));
    guide.pictures_made = made;
    PictureSearch search(root, units, goal_side, guide, visit);
    for (const Picture& p : pictures) {
        search.run(p, len, series);
        ++guide.pictures;
    }
    return true;
}

}  // namespace rebirth
