#include "rebirth/retro_cage.h"

#include "core/key_set.h"
#include "rebirth/bitboard.h"
#include "rebirth/legality.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

namespace rebirth {

namespace {

// The followed units, the side to move (the other side's move is retracted next) and what
// is known of the hidden units.
struct Cage {
    std::array<Piece, SQUARE_NB> board{};
    Color stm = WHITE;
    // Hidden units known to exist, per side and walk: those not followed at the start and
    // those that left the region since (units never leave the board backwards).
    std::array<std::array<std::uint8_t, WALK_NB>, COLOR_NB> hidden{};
    // Hidden units whose count is not kept: one an opponent's hidden unit may have brought
    // back, or (the second search) one a retraction brought back and left hidden.
    std::array<bool, COLOR_NB> phantom{};
    // The squares of the followed units that never moved before: a king and rook that keep a
    // castling right in the start position, or whose castling a retraction took back, stood
    // on their game-array squares from the game's start until then.
    Bitboard frozen = 0;
    // The unit on the search's pinned square has not been retracted yet (it may not take its
    // promotion back first: promoted_on_its_square).
    bool pinned = false;
    // The exact search's budgets (cage_refutes_exact): the captures each side may still take
    // back, by any unit and by pieces (non-pawns), from the material and the pawns' files.
    std::array<std::uint8_t, COLOR_NB> captures{255, 255}, piece_captures{255, 255};
    // The promotions each side may have made (8: no bound but its pawns).
    std::array<std::uint8_t, COLOR_NB> promotions{8, 8};
    // The exact search's tracked units (CageSearch::promotable_): the square each stands on
    // now, 64 once it is no longer followed or its promotion was taken back.
    std::array<std::uint8_t, 8> tracked{64, 64, 64, 64, 64, 64, 64, 64};

    // The board's part of the key, kept up to date by put(): each square's walk (4 bits, walks
    // are below WALK_NB) in words 0-3, the black units' squares in word 4.
    std::array<std::uint64_t, 5> board_key{};

    // Puts p (or nothing) on s.
    void put(Square s, Piece p) {
        const int w = s / 16, shift = 4 * (s % 16);
        board_key[size_t(w)] &= ~(std::uint64_t(15) << shift);
        board_key[4] &= ~(std::uint64_t(1) << s);
        board[s] = p;
        if (p.empty()) return;
        board_key[size_t(w)] |= std::uint64_t(p.walk) << shift;
        if (p.color == BLACK) board_key[4] |= std::uint64_t(1) << s;
    }

    // The whole cage as a key (exact, not a hash): the board's words, the hidden counts (one
    // byte a walk) in words 5 and 6, the frozen squares (only corners and king squares) with
    // the side to move and the phantom flags in bits 1-3 (squares b1-d1, never frozen) and the
    // pinned flag in bit 5 (f1) in word 7; the tracked units' squares in word 8.
    using Key = std::array<std::uint64_t, 9>;
    static_assert(WALK_NB <= 16 && WALK_NB >= 8 && PAWN < 8);
    Key key() const {
        Key k{};
        for (size_t i = 0; i < board_key.size(); ++i) k[i] = board_key[i];
        // The counts of walks 0 to 7 as bytes (only king to pawn, 1 to 6, are ever counted).
        std::memcpy(&k[5], hidden[WHITE].data(), 8);
        std::memcpy(&k[6], hidden[BLACK].data(), 8);
        assert(!(frozen & 0xFFFFFFFF2E));
        k[7] = frozen | (std::uint64_t(captures[WHITE]) << 8 | std::uint64_t(captures[BLACK]) << 16 |
                         std::uint64_t(piece_captures[WHITE]) << 24 | std::uint64_t(piece_captures[BLACK]) << 32);
        k[7] |= (std::uint64_t(stm) << 1 | std::uint64_t(phantom[WHITE]) << 2 | std::uint64_t(phantom[BLACK]) << 3 |
                 std::uint64_t(pinned) << 5);
        std::memcpy(&k[8], tracked.data(), tracked.size());
        return k;
    }
    // Takes back a capture by a unit of c (a piece, or not): false when its budget is spent
    // (255: no budget, as outside the exact search).
    bool spend(Color c, bool piece) {
        if (captures[c] == 0 || (piece && piece_captures[c] == 0)) return false;
        if (captures[c] != 255) --captures[c];
        if (piece && piece_captures[c] != 255) --piece_captures[c];
        return true;
    }
    bool may_pass(Color c) const {
        if (phantom[c]) return true;
        for (Walk w = KING; w <= PAWN; ++w)
            if (hidden[c][w]) return true;
        return false;
    }
};

constexpr Walk kTaken[] = {QUEEN, ROOK, BISHOP, KNIGHT, PAWN};

// The squares a queen, rook or bishop p on s attacks past `occupied` (none for other walks).
Bitboard slider_attacks(Piece p, Square s, Bitboard occupied) {
    return p.walk == QUEEN    ? queen_attacks(s, occupied)
           : p.walk == ROOK   ? rook_attacks(s, occupied)
           : p.walk == BISHOP ? bishop_attacks(s, occupied)
                              : 0;
}

// The square of c's followed king in g (SQ_NONE without one), the followed units' squares in
// `occupied`.
Square king_and_units(const Cage& g, Color c, Bitboard& occupied) {
    Square king = SQ_NONE;
    occupied = 0;
    for (int s = 0; s < SQUARE_NB; ++s) {
        if (g.board[s].empty()) continue;
        occupied |= square_bb(Square(s));
        if (g.board[s] == make_piece(c, KING)) king = Square(s);
    }
    return king;
}

// Whether p on s is a pawn on its own second rank (it never moved, and never will backwards).
bool unmoved_pawn(Piece p, Square s) { return p.walk == PAWN && relative_rank(p.color, rank_of(s)) == 1; }

// Whether the game array has unit p on s.
bool at_home(Piece p, Square s) {
    const int r = rank_of(s);
    if (r == (p.color == WHITE ? 1 : 6)) return p.walk == PAWN;
    if (r == (p.color == WHITE ? 0 : 7)) return p.walk == BACK_RANK_WALKS[file_of(s)];
    return false;
}

// Whether unit p on `from` attacks `to` in a way no unit between could block: a king,
// knight or pawn, or a queen, rook or bishop on an adjacent square of its line.
bool contact_attack(Piece p, Square from, Square to) {
    const int dx = file_of(to) - file_of(from), dy = rank_of(to) - rank_of(from);
    const int ax = std::abs(dx), ay = std::abs(dy);
    switch (p.walk) {
        case KING:
        case QUEEN:
            return std::max(ax, ay) == 1;
        case ROOK:
            return ax + ay == 1;
        case BISHOP:
            return ax == 1 && ay == 1;
        case KNIGHT:
            return (ax == 1 && ay == 2) || (ax == 2 && ay == 1);
        case PAWN:
            return ax == 1 && dy == (p.color == WHITE ? 1 : -1);
        default:
            return false;
    }
}

// The followed units of ~c that attack c's king on `king` by contact_attack (at most 2
// counted; one of them in `checker`): only units next to it or a knight's leap away can.
int contact_checkers(const std::array<Piece, SQUARE_NB>& b, Square king, Color c, Square& checker) {
    static constexpr int kNear[16][2] = {{1, 0}, {-1, 0}, {0, 1},  {0, -1}, {1, 1},  {1, -1}, {-1, 1},  {-1, -1},
                                         {1, 2}, {2, 1},  {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}};
    int n = 0;
    for (const auto& d : kNear) {
        const int f = file_of(king) + d[0], r = rank_of(king) + d[1];
        if (!on_board(f, r)) continue;
        const Square s = make_square(f, r);
        if (!b[s].empty() && b[s].color != c && contact_attack(b[s], s, king)) {
            checker = s;
            if (++n == 2) break;
        }
    }
    return n;
}

// The same for c's followed king wherever it stands (0 without one).
int contact_checkers(const std::array<Piece, SQUARE_NB>& b, Color c, Square& checker) {
    for (int s = 0; s < SQUARE_NB; ++s)
        if (b[s].walk == KING && b[s].color == c) return contact_checkers(b, Square(s), c, checker);
    return 0;
}

// Whether side c's units fit the game array: at most 16 (n: its known units per walk, followed
// and known hidden), 8 pawns and the pieces beyond the game array's at most the pawns missing;
// and its followed pawns can each have come from a file of their own: a pawn on its second
// rank never moved (`home`: their files); any other, on relative rank k, left a second-rank
// square no pawn of c holds now, at most k - 1 files away (a file a capture). `ways`: for
// each pawn off its second rank, the last and first files it may come from.
bool side_fits(const std::array<int, WALK_NB>& n, unsigned home, std::array<std::pair<int, int>, 16>& ways, int pawns,
               int promotions = 8) {
    int total = 0;
    for (Walk w = KING; w <= PAWN; ++w) total += n[w];
    const int extra =
        std::max(0, n[QUEEN] - 1) + std::max(0, n[ROOK] - 2) + std::max(0, n[BISHOP] - 2) + std::max(0, n[KNIGHT] - 2);
    if (total > 16 || n[KING] > 1 || n[PAWN] + extra > 8 || extra > promotions) return false;
    // Intervals of files: by last file, each takes the first free file of its interval.
    std::sort(ways.begin(), ways.begin() + pawns);
    unsigned taken = home;
    for (int i = 0; i < pawns; ++i) {
        int f = ways[size_t(i)].second;
        while (f <= ways[size_t(i)].first && (taken & (1u << f))) ++f;
        if (f > ways[size_t(i)].first) return false;
        taken |= 1u << f;
    }
    return true;
}

// Whether the position of followed units g (its side to move m) may be part of a history:
// ~m is not in check by contact, m by one contact checker at most, and each side's units fit
// the game array (side_fits).
bool cage_possible(const Cage& g) {
    std::array<std::array<int, WALK_NB>, COLOR_NB> n{};
    std::array<unsigned, COLOR_NB> home{};
    std::array<std::array<std::pair<int, int>, 16>, COLOR_NB> ways{};
    std::array<int, COLOR_NB> pawns{};
    std::array<Square, COLOR_NB> king{SQ_NONE, SQ_NONE};
    for (int s = 0; s < SQUARE_NB; ++s) {
        const Piece p = g.board[s];
        if (p.empty()) continue;
        ++n[p.color][p.walk];
        if (p.walk == KING) king[p.color] = Square(s);
        if (p.walk != PAWN) continue;
        const int rr = relative_rank(p.color, rank_of(Square(s))), f = file_of(Square(s));
        if (rr == 1)
            home[p.color] |= 1u << f;
        else if (pawns[p.color] < 16)
            ways[p.color][size_t(pawns[p.color]++)] = {std::min(7, f + rr - 1), std::max(0, f - (rr - 1))};
    }
    Square checker = SQ_NONE;
    if ((king[~g.stm] != SQ_NONE && contact_checkers(g.board, king[~g.stm], ~g.stm, checker) > 0) ||
        (king[g.stm] != SQ_NONE && contact_checkers(g.board, king[g.stm], g.stm, checker) > 1))
        return false;
    for (Color c : {WHITE, BLACK}) {
        for (Walk w = KING; w <= PAWN; ++w) n[c][w] += g.hidden[c][w];
        if (!side_fits(n[c], home[c], ways[c], pawns[c], g.promotions[c])) return false;
    }
    return true;
}

// The squares whose units never move again backwards in g: pawns on their second rank and
// the frozen king and rooks.
Bitboard fixed_squares(const Cage& g) {
    Bitboard fixed = g.frozen;
    for (int s = 0; s < SQUARE_NB; ++s)
        if (unmoved_pawn(g.board[s], Square(s))) fixed |= square_bb(Square(s));
    return fixed;
}

// Whether piece p (no pawn) on s can get, moving back and never onto or past a square of
// `fixed`, to a square of the game array of its walk, off `region` (where it is no longer
// followed) or, with `last_rank` and no king, to its last rank (where it may have been a pawn
// promoted). A unit never leaves the board backwards (orthodox chess): one that cannot get
// to any of them is a dead end (may_get_home), one that cannot get home nor off the region
// was promoted (promotions_fit).
bool reaches_home(Piece p, Square s, Bitboard fixed, Bitboard region, bool last_rank) {
    const int home_rank = p.color == WHITE ? 0 : 7;
    Bitboard targets = ~region;
    for (int f = 0; f < 8; ++f)
        if (BACK_RANK_WALKS[f] == p.walk) targets |= square_bb(make_square(f, home_rank));
    if (last_rank && p.walk != KING) targets |= rank_bb(7 - home_rank);
    Bitboard reach = square_bb(s), frontier = reach;
    while (!(reach & targets)) {
        Bitboard next = 0;
        for (Bitboard b = frontier; b;) {
            const Square x = pop_lsb(b);
            next |= p.walk == KING     ? king_attacks(x)
                    : p.walk == KNIGHT ? knight_attacks(x)
                    : p.walk == ROOK   ? rook_attacks(x, fixed)
                    : p.walk == BISHOP ? bishop_attacks(x, fixed)
                                       : queen_attacks(x, fixed);
        }
        frontier = next & ~fixed & ~reach;
        if (!frontier) return false;
        reach |= frontier;
    }
    return true;
}

// reaches_home with the last rank (a pawn promoted there) among the targets.
bool may_get_home(Piece p, Square s, Bitboard fixed, Bitboard region) {
    return reaches_home(p, s, fixed, region, true);
}

// Whether every followed piece of g (pawns apart: side_fits) may still get home
// (may_get_home). A king never stood on a square a pawn on its own second rank attacks (the
// pawn stood there all game): those squares are walls on its way home too.
bool pieces_may_get_home(const Cage& g, Bitboard region) {
    const Bitboard fixed = fixed_squares(g);
    std::array<Bitboard, COLOR_NB> pawn_guard{};
    for (int s = 0; s < SQUARE_NB; ++s)
        if (unmoved_pawn(g.board[s], Square(s)))
            pawn_guard[g.board[s].color] |= pawn_attacks(g.board[s].color, Square(s));
    for (int s = 0; s < SQUARE_NB; ++s) {
        const Piece p = g.board[s];
        if (p.empty() || p.walk == PAWN || (fixed & square_bb(Square(s)))) continue;
        const Bitboard guarded = p.walk == KING ? pawn_guard[~p.color] & ~square_bb(Square(s)) : 0;
        if (!may_get_home(p, Square(s), fixed | guarded, region)) return false;
    }
    return true;
}

// Whether each side's promotions fit its missing pawns: per walk, the pieces beyond the game
// array's, or the followed pieces that must have been promoted (they reach no game-array
// square of their walk past the fixed units, nor the region's edge), whichever is more;
// bishops per square colour (a hidden bishop counted where it costs least), and a bishop of a
// colour whose game-array square is shut in by fixed units (its original never left it) is
// promoted unless it stands there. A helper's proposal (JR-D-073). A flood per piece and
// state: only the search that keeps the kings (cage_refutes_wide's) counts it.
bool promotions_fit(const Cage& g, Bitboard region) {
    const Bitboard fixed = fixed_squares(g);
    for (Color c : {WHITE, BLACK}) {
        std::array<int, WALK_NB> n{}, must{};
        int bishops[2] = {0, 0}, must_bishops[2] = {0, 0};  // [1]: dark squares
        for (int i = 0; i < SQUARE_NB; ++i) {
            const Square s = Square(i);
            const Piece p = g.board[s];
            if (p.empty() || p.color != c) continue;
            ++n[p.walk];
            const bool promoted = p.walk != PAWN && p.walk != KING && !(fixed & square_bb(s)) &&
                                  !reaches_home(p, s, fixed, region, false);
            if (p.walk != BISHOP) {
                must[p.walk] += promoted;
                continue;
            }
            const int dark = is_dark(s);
            ++bishops[dark];
            bool shut_out = promoted;
            for (const int f : {2, 5}) {
                const Square home = make_square(f, c == WHITE ? 0 : 7);
                if (home != s && is_dark(home) == bool(dark) && !(bishop_attacks(home, fixed) & ~fixed))
                    shut_out = true;
            }
            must_bishops[dark] += shut_out;
        }
        for (Walk w = KING; w <= PAWN; ++w) n[w] += g.hidden[c][w];
        const int hidden_bishops = g.hidden[c][BISHOP];
        int bishops_promoted = 1 << 20;
        for (int light = 0; light <= hidden_bishops; ++light)
            bishops_promoted = std::min(
                bishops_promoted, std::max(std::max(0, bishops[0] + light - 1), must_bishops[0]) +
                                      std::max(std::max(0, bishops[1] + hidden_bishops - light - 1), must_bishops[1]));
        const int promoted = std::max(std::max(0, n[QUEEN] - 1), must[QUEEN]) +
                             std::max(std::max(0, n[ROOK] - 2), must[ROOK]) +
                             std::max(std::max(0, n[KNIGHT] - 2), must[KNIGHT]) + bishops_promoted;
        if (n[PAWN] + promoted > 8 || promoted > g.promotions[c]) return false;
    }
    return true;
}

// Whether the followed unit p on s (`occupied`: the followed units) has a retraction that
// takes it off `region` (where it would be hidden): onto an empty square the unit may come
// from, a pawn's never its second rank (there it stays followed).
bool may_leave(Bitboard occupied, Piece p, Square s, Bitboard region) {
    const Bitboard away = ~region & ~occupied;
    const int f = file_of(s), r = rank_of(s), back = p.color == WHITE ? -1 : 1;
    // Whether a pawn of p's colour on relative rank rr may step back off the region, straight or
    // taking (never back onto its second rank, where it stays followed).
    const auto pawn_back = [&](int rr) {
        if (rr - 1 <= 1) return false;
        Bitboard from = 0;
        for (int df : {-1, 0, 1})
            if (on_board(f + df, r + back)) from |= square_bb(make_square(f + df, r + back));
        return (from & away) != 0;
    };
    const int rr = relative_rank(p.color, r);
    switch (p.walk) {
        case PAWN:
            return pawn_back(rr);
        case KING:
            return (king_attacks(s) & away) != 0;
        default:
            break;
    }
    if (rr == 7 && pawn_back(rr)) return true;  // a promotion taken back
    switch (p.walk) {
        case KNIGHT:
            return (knight_attacks(s) & away) != 0;
        case ROOK:
            return (rook_attacks(s, occupied) & away) != 0;
        case BISHOP:
            return (bishop_attacks(s, occupied) & away) != 0;
        default:
            return (queen_attacks(s, occupied) & away) != 0;
    }
}

// Hides (counts as hidden units) every followed unit of g that may_leave the region, until
// none is left: hiding a unit frees lines for others. Sound whatever it hides: a hidden unit
// is only forgotten, still counted.
void shed_leavers(Cage& g, Bitboard region, bool keep_kings) {
    Bitboard occupied = 0;  // kept up to date as units are hidden
    for (int s = 0; s < SQUARE_NB; ++s)
        if (!g.board[s].empty()) occupied |= square_bb(Square(s));
    for (bool again = true; again;) {
        again = false;
        for (Bitboard b = occupied & ~g.frozen; b;) {
            const Square s = pop_lsb(b);
            const Piece p = g.board[s];
            if ((keep_kings && p.walk == KING) || !may_leave(occupied, p, s, region)) continue;
            g.put(s, Piece{});
            ++g.hidden[p.color][p.walk];
            occupied &= ~square_bb(s);
            again = true;
        }
    }
}

// A cage search's set of positions seen, taken from the thread's spare sets and given back
// emptied (WideKeySet::reset) when the search ends: thousands of searches a problem, most of
// them small, reuse a few tables instead of faulting fresh pages in for each.
class SeenSet {
  public:
    SeenSet() {
        if (spare().empty()) {
            set_ = std::make_unique<WideKeySet<Cage::Key>>();
        } else {
            set_ = std::move(spare().back());
            spare().pop_back();
        }
    }
    ~SeenSet() {
        set_->reset();
        spare().push_back(std::move(set_));
    }
    SeenSet(const SeenSet&) = delete;
    SeenSet& operator=(const SeenSet&) = delete;

    bool insert(const Cage::Key& k) { return set_->insert(k); }

  private:
    static std::vector<std::unique_ptr<WideKeySet<Cage::Key>>>& spare() {
        thread_local std::vector<std::unique_ptr<WideKeySet<Cage::Key>>> sets;
        return sets;
    }
    std::unique_ptr<WideKeySet<Cage::Key>> set_;
};

class CageSearch {
  public:
    // `shed`: units that may leave the region in one retraction are hidden at once
    // (shed_leavers), as Retractor's cage verification removes them: far fewer positions.
    // `keep_kings`: kings are never hidden so (their check rules stay).
    // `exact`: the region's squares not held by followed units are empty (cage_refutes_exact);
    // it needs the units retractions bring back followed and none hidden at once.
    CageSearch(Bitboard region, long max_states, bool follow_taken = true, bool shed = false, Square pinned = SQ_NONE,
               bool keep_kings = false, Bitboard exact = 0)
        : region_(region),
          max_states_(max_states),
          follow_taken_(follow_taken || exact),
          shed_(shed && !exact),
          keep_kings_(keep_kings),
          exact_(exact),
          pinned_(pinned) {
        init_bitboards();  // the attack tables may_get_home reads
    }

    // Whether no relaxed history from `start` reaches the game array (within the limit).
    bool refutes(Cage start) {
        if (shed_) shed_leavers(start, region_, keep_kings_);
        unpin_if_hidden(start);
        if (!cage_possible(start) || !pieces_may_get_home(start, region_) ||
            ((keep_kings_ || exact_) && !promotions_fit(start, region_)) || (exact_ && line_checked(start)))
            return true;
        std::vector<Cage> stack{start};
        seen_.insert(start.key());
        while (!stack.empty()) {
            Cage g = std::move(stack.back());
            stack.pop_back();
            if (home(g)) return false;
            successors(g, stack);
            if (visited_ > max_states_) return false;
        }
        return true;
    }

  private:
    static bool home(const Cage& g) {
        for (int s = 0; s < SQUARE_NB; ++s)
            if (!g.board[s].empty() && !at_home(g.board[s], Square(s))) return false;
        return true;
    }

    // A pinned unit that is hidden is forgotten, its restriction with it.
    void unpin_if_hidden(Cage& g) const {
        if (g.pinned && g.board[pinned_].empty()) g.pinned = false;
    }

    // Counts a unit of c of walk w as hidden; the exact search keeps no counts (every hidden
    // unit uncounted: far fewer positions, as units come and go across the region's edge).
    void hide(Cage& e, Color c, Walk w) const {
        if (exact_)
            e.phantom[c] = true;
        else
            ++e.hidden[c][w];
    }

    // Whether a unit of colour c arriving on s (retracted there) stays followed.
    bool kept(Color c, Walk w, Square s) const {
        return (region_ & square_bb(s)) || unmoved_pawn(make_piece(c, w), s) || (exact_ && w == KING);
    }

    // Pushes e (the earlier position, its side to move the retracting side m) when it is new
    // and possible: ~m not in check by contact, m in check by one contact checker at most, the
    // known units fitting the game array.
    void push(Cage& e, std::vector<Cage>& out) {
        if (shed_) shed_leavers(e, region_, keep_kings_);
        unpin_if_hidden(e);
        // Seen first (an impossible position stays impossible, and is kept out of the count).
        if (!seen_.insert(e.key()) || !cage_possible(e) || !pieces_may_get_home(e, region_) ||
            ((keep_kings_ || exact_) && !promotions_fit(e, region_)) || (exact_ && line_checked(e)))
            return;
        ++visited_;
        out.push_back(e);
    }

    // The earlier positions of the retraction of m's unit on t from `from` (as walk
    // `before`), taking back nothing (capture 0), any unit or nothing (1) or some unit (2);
    // `ep`: an en passant capture, its pawn back on `ep_square`.
    void retract_one(const Cage& g, Square t, Square from, Walk before, int capture, std::vector<Cage>& out,
                     Square ep_square = SQ_NONE) {
        const Color m = ~g.stm;
        Cage e = g;
        e.stm = m;
        if (t == pinned_) e.pinned = false;  // its last move, taken back
        // A tracked unit follows its retraction; its promotion is taken back only on a square
        // it may have been promoted on.
        for (size_t i = 0; i < e.tracked.size(); ++i) {
            if (e.tracked[i] != t) continue;
            const bool promotion = g.board[t].walk != PAWN && before == PAWN;
            if (promotion && !(promotable_[i] >> file_of(t) & 1u)) return;
            e.tracked[i] = std::uint8_t(!promotion && kept(m, before, from) ? from : 64);
        }
        e.put(t, Piece{});
        if (kept(m, before, from))
            e.put(from, make_piece(m, before));
        else
            hide(e, m, before);
        if (ep_square != SQ_NONE) {
            if (!e.spend(m, false)) return;
            if (kept(~m, PAWN, ep_square))
                e.put(ep_square, make_piece(~m, PAWN));
            else
                hide(e, ~m, PAWN);
            push(e, out);
            return;
        }
        if (capture != 2) {
            Cage plain = e;
            push(plain, out);
        }
        if (capture == 0) return;
        for (Walk w : kTaken) {
            if (w == PAWN && (rank_of(t) == 0 || rank_of(t) == 7)) continue;
            Cage taken = e;
            // A bishop shut in at home, taken there, was counted before the search began.
            const bool counted = w == BISHOP && (shut_homes_ & square_bb(t)) && rank_of(t) == (m == WHITE ? 7 : 0);
            if (!counted && !taken.spend(m, before != PAWN)) continue;
            if (follow_taken_)
                taken.put(t, make_piece(~m, w));
            else
                taken.phantom[~m] = true;  // not counted: fewer positions, a weaker material bound
            push(taken, out);
        }
    }

  public:
    // The earlier positions of the retractions of the followed unit on t (of the side whose
    // move is retracted in g), appended to out.
    void unit_retractions(const Cage& g, Square t, std::vector<Cage>& out) {
        const Color m = ~g.stm;
        const Piece p = g.board[t];
        if (g.frozen & square_bb(t)) return;
        const auto empty = [&](int f, int r) {
            return on_board(f, r) && g.board[make_square(f, r)].empty() && !(blocked_ & square_bb(make_square(f, r)));
        };
        const int tf = file_of(t), tr = rank_of(t);
        const int fwd = m == WHITE ? 1 : -1;
        if (p.walk == PAWN) {
            const int rr = relative_rank(m, tr);
            if (rr <= 1) return;
            if (empty(tf, tr - fwd)) {
                retract_one(g, t, make_square(tf, tr - fwd), PAWN, 0, out);
                if (rr == 3 && empty(tf, tr - 2 * fwd)) retract_one(g, t, make_square(tf, tr - 2 * fwd), PAWN, 0, out);
            }
            for (int df : {-1, 1}) {
                if (!empty(tf + df, tr - fwd)) continue;
                retract_one(g, t, make_square(tf + df, tr - fwd), PAWN, 2, out);
                // En passant: the taken pawn back beside, its double step from two ranks up.
                if (rr == 5 && empty(tf, tr - fwd) && empty(tf, tr + fwd))
                    retract_one(g, t, make_square(tf + df, tr - fwd), PAWN, 0, out, make_square(tf, tr - fwd));
            }
            return;
        }
        // A promoted piece back to its pawn on the seventh rank (not the pinned unit's last move).
        if (p.walk != KING && relative_rank(m, tr) == 7 && !(g.pinned && t == pinned_)) {
            if (empty(tf, tr - fwd)) retract_one(g, t, make_square(tf, tr - fwd), PAWN, 0, out);
            for (int df : {-1, 1})
                if (empty(tf + df, tr - fwd)) retract_one(g, t, make_square(tf + df, tr - fwd), PAWN, 2, out);
        }
        static constexpr int kLines[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
        static constexpr int kLeaps[8][2] = {{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}};
        if (p.walk == KNIGHT) {
            for (const auto& d : kLeaps)
                if (empty(tf + d[0], tr + d[1])) retract_one(g, t, make_square(tf + d[0], tr + d[1]), KNIGHT, 1, out);
            return;
        }
        const bool slides = p.walk != KING;
        for (int i = 0; i < 8; ++i) {
            if ((p.walk == ROOK && i >= 4) || (p.walk == BISHOP && i < 4)) continue;
            for (int f = tf + kLines[i][0], r = tr + kLines[i][1]; empty(f, r); f += kLines[i][0], r += kLines[i][1]) {
                retract_one(g, t, make_square(f, r), p.walk, 1, out);
                if (!slides) break;
            }
        }
        if (p.walk == KING) uncastle(g, t, out);
    }

  private:
    void successors(const Cage& g, std::vector<Cage>& out) {
        const Color m = ~g.stm;  // the side whose move is retracted
        Square forced = SQ_NONE;
        const int checks = contact_checkers(g.board, g.stm, forced);
        if (checks > 1) return;
        blocked_ = blocked_squares(g);
        if (blocked_ && !g.may_pass(WHITE) && !g.may_pass(BLACK)) return;  // nothing can stand there
        for (int ti = 0; ti < SQUARE_NB; ++ti) {
            const Square t = Square(ti);
            const Piece p = g.board[t];
            if (p.empty() || p.color != m || (checks == 1 && t != forced)) continue;
            unit_retractions(g, t, out);
        }
        // A hidden unit's move (followed units unchanged), which may have taken a unit of the
        // other side back that stays hidden.
        if (checks == 0 && g.may_pass(m)) {
            Cage e = g;
            e.stm = m;
            // The exact search: a move that took nothing, and one that took a unit if m has a
            // capture left.
            if (exact_) {
                Cage quiet = e;
                push(quiet, out);
            }
            if (e.spend(m, false)) {
                e.phantom[~m] = true;
                push(e, out);
            }
        }
        if (exact_ && checks == 0) arrivals_from_outside(g, out);
    }

    // The exact search (exact_): whether the side not to move in e is in check from a
    // followed queen, rook or bishop whose squares between are all on the region (empty
    // there, as the region's squares without a followed unit are).
    bool line_checked(const Cage& e) const {
        const Color c = ~e.stm;
        Bitboard occupied = 0;
        const Square king = king_and_units(e, c, occupied);
        if (king == SQ_NONE) return false;
        for (int s = 0; s < SQUARE_NB; ++s) {
            const Piece p = e.board[s];
            if (p.empty() || p.color == c) continue;
            const Bitboard sees = slider_attacks(p, Square(s), occupied);
            if ((sees & square_bb(king)) && !(between_bb(Square(s), king) & ~exact_)) return true;
        }
        return false;
    }

    // Whether a unit p on x (a region square) has a move off the region: onto the first
    // square off it along a line whose squares on the region are empty (`occupied`: the
    // followed units), a leap or a king's step off it, a pawn's step, double step or capture.
    bool leaves_region(Piece p, Square x, Bitboard occupied) const {
        // Off the region onto a square no followed unit holds (it would be gone).
        const Bitboard off = ~exact_, to = off & ~occupied;
        const int f = file_of(x), r = rank_of(x), fwd = p.color == WHITE ? 1 : -1;
        switch (p.walk) {
            case KING:
                // Castling from the king's game-array square onto the c- or g-file too.
                if (x == make_square(4, p.color == WHITE ? 0 : 7) &&
                    (to & (square_bb(make_square(2, r)) | square_bb(make_square(6, r)))))
                    return true;
                return (king_attacks(x) & to) != 0;
            case KNIGHT:
                return (knight_attacks(x) & to) != 0;
            case PAWN: {
                const int rr = relative_rank(p.color, r);
                if (rr < 1 || rr > 6) return false;
                for (int df : {-1, 0, 1})
                    if (on_board(f + df, r + fwd) && (to & square_bb(make_square(f + df, r + fwd)))) return true;
                if (rr != 1) return false;
                const Square step = make_square(f, r + fwd), two = make_square(f, r + 2 * fwd);
                return !(occupied & square_bb(step)) && (to & square_bb(two));
            }
            case ROOK:
                return (rook_attacks(x, occupied | off) & to) != 0;
            case BISHOP:
                return (bishop_attacks(x, occupied | off) & to) != 0;
            case QUEEN:
                return (queen_attacks(x, occupied | off) & to) != 0;
            default:
                return false;
        }
    }

    // The exact search's retractions of a hidden unit of m's moves off the region: the unit
    // back on the empty exact square x it left (followed from then on), one of m's hidden
    // units (none counted in the exact search: hide), which may have taken a unit of the
    // other side there (left hidden).
    void arrivals_from_outside(const Cage& g, std::vector<Cage>& out) {
        const Color m = ~g.stm;
        if (!g.phantom[m]) return;
        Bitboard occupied = 0;
        king_and_units(g, m, occupied);
        for (Bitboard b = exact_ & ~occupied; b;) {
            const Square x = pop_lsb(b);
            for (Walk w = KING; w <= PAWN; ++w) {
                const Piece p = make_piece(m, w);
                if (!leaves_region(p, x, occupied)) continue;
                for (bool took : {false, true}) {
                    Cage e = g;
                    e.stm = m;
                    e.put(x, p);
                    if (took && !e.spend(m, w != PAWN)) continue;
                    if (took) e.phantom[~m] = true;
                    push(e, out);
                }
            }
        }
    }

    // The side m whose move is retracted in g is not in check there: where a followed queen,
    // rook or bishop of the side to move stands on a line with m's king with one square between,
    // empty of followed units, a hidden unit stands on it, and m's move neither left it nor
    // crossed it (it would have stayed empty). A helper's proposal (JR-D-046).
    static Bitboard blocked_squares(const Cage& g) {
        const Color m = ~g.stm;
        Bitboard occupied = 0;
        const Square king = king_and_units(g, m, occupied);
        if (king == SQ_NONE) return 0;
        Bitboard blocked = 0;
        for (int s = 0; s < SQUARE_NB; ++s) {
            const Piece p = g.board[s];
            if (p.empty() || p.color != g.stm) continue;
            const Bitboard sees = slider_attacks(p, Square(s), occupied);
            if (!(sees & square_bb(king))) continue;
            if (const Bitboard between = between_bb(Square(s), king); popcount(between) == 1) blocked |= between;
        }
        return blocked;
    }

    // Whether a followed unit of ~m in e attacks `target` surely: by contact, or as a queen,
    // rook or bishop along a line whose squares between are all in `empty` (squares empty in e).
    static bool surely_attacked(const Cage& e, Color m, Square target, Bitboard empty) {
        for (int s = 0; s < SQUARE_NB; ++s) {
            const Piece p = e.board[s];
            if (p.empty() || p.color == m || Square(s) == target) continue;
            if (contact_attack(p, Square(s), target)) return true;
            const Bitboard line = slider_attacks(p, Square(s), 0);
            if ((line & square_bb(target)) && !(between_bb(Square(s), target) & ~empty)) return true;
        }
        return false;
    }

    // Castling taken back: the king from g1 (c1) to e1 with the rook from f1 (d1) to h1 (a1);
    // a rook not followed there may be hidden. Not when a followed unit of the other side
    // surely attacks a square the king stood on or crossed (castling out of, through or into
    // check; a helper's proposal, JR-D-073).
    void uncastle(const Cage& g, Square t, std::vector<Cage>& out) {
        const Color m = ~g.stm;
        const int r = m == WHITE ? 0 : 7;
        if (rank_of(t) != r) return;
        const int tf = file_of(t);
        if (tf != 6 && tf != 2) return;
        const Square king_home = make_square(4, r), rook_now = make_square(tf == 6 ? 5 : 3, r),
                     corner = make_square(tf == 6 ? 7 : 0, r);
        if (!g.board[king_home].empty() || !g.board[corner].empty()) return;
        if (tf == 2 && !g.board[make_square(1, r)].empty()) return;
        const Piece rook = g.board[rook_now];
        const bool followed = rook == make_piece(m, ROOK);
        if (!followed && (!rook.empty() || !g.may_pass(m))) return;
        // The exact search: a rook on an exact square would be followed; one back on an exact
        // corner is followed from then on (one of m's hidden units, none counted there: hide).
        if (!followed && (exact_ & square_bb(rook_now))) return;
        const bool corner_followed = !followed && (exact_ & square_bb(corner));
        Cage e = g;
        e.stm = m;
        e.put(t, Piece{});
        e.put(king_home, make_piece(m, KING));
        e.frozen |= square_bb(king_home);
        for (std::uint8_t& x : e.tracked)
            if (x == rook_now) x = 64;  // a rook that castled was never promoted
        const Bitboard empty =
            tf == 6 ? square_bb(make_square(5, r)) | square_bb(make_square(6, r))
                    : square_bb(make_square(1, r)) | square_bb(make_square(2, r)) | square_bb(make_square(3, r));
        for (const Square k : {king_home, rook_now, t})
            if (surely_attacked(e, m, k, empty)) return;
        if (followed) {
            e.put(rook_now, Piece{});
            e.put(corner, make_piece(m, ROOK));
            e.frozen |= square_bb(corner);
        }
        if (corner_followed) {
            e.put(corner, make_piece(m, ROOK));
            e.frozen |= square_bb(corner);
        }
        push(e, out);
    }

    Bitboard region_;
    long max_states_;
    bool follow_taken_;
    bool shed_;
    bool keep_kings_;
    Bitboard exact_;  // the squares known exactly (cage_refutes_exact)
  public:
    // Game-array squares of bishops shut in by unmoved pawns and gone: taken there by a piece,
    // their captures taken off the budgets at the start (cage_refutes_exact).
    Bitboard shut_homes_ = 0;
    // Per tracked unit (Cage::tracked), the files of its side's last rank where it may have
    // been promoted (bit f), as the static analysis of the start position allows
    // (LegalityMarks::promoted_unit): cage_refutes_exact.
    std::array<std::uint8_t, 8> promotable_{};

  private:
    Square pinned_;  // SQ_NONE: none
    // Squares no followed unit of the side whose move is retracted left or crossed: the one
    // square between that side's king and a slider of the other side (blocked_squares).
    Bitboard blocked_ = 0;
    SeenSet seen_;
    long visited_ = 0;  // possible positions pushed
};

// The squares within `radius` (king steps) of the squares of `from`.
Bitboard around(Bitboard from, int radius) {
    Bitboard region = 0;
    for (int k = 0; k < SQUARE_NB; ++k) {
        if (!(from & square_bb(Square(k)))) continue;
        for (int f = file_of(Square(k)) - radius; f <= file_of(Square(k)) + radius; ++f)
            for (int r = rank_of(Square(k)) - radius; r <= rank_of(Square(k)) + radius; ++r)
                if (on_board(f, r)) region |= square_bb(make_square(f, r));
    }
    return region;
}

// `region` and the squares from which the pieces (pawns apart) on it can have come by one
// step of their walk (a knight's leap, a queen's, rook's or bishop's step along its lines).
Bitboard with_origins(const std::array<Piece, SQUARE_NB>& board, Bitboard region) {
    Bitboard grown = region;
    for (Bitboard b = region; b;) {
        const Square sq = pop_lsb(b);
        const Walk w = board[sq].walk;
        const Bitboard king = king_attacks(sq), lines = rook_attacks(sq, ~Bitboard(0));
        grown |= w == KING || w == QUEEN ? king
                 : w == ROOK             ? king & lines
                 : w == BISHOP           ? king & ~lines
                 : w == KNIGHT           ? knight_attacks(sq)
                                         : 0;
    }
    return grown;
}

// The parts of `b` whose squares are joined by king steps within b, from a1's side up.
std::vector<Bitboard> connected_parts(Bitboard b) {
    init_bitboards();
    std::vector<Bitboard> parts;
    while (b) {
        Bitboard part = square_bb(lsb(b));
        for (Bitboard grown = part; grown;) {
            Bitboard next = 0;
            for (Bitboard g = grown; g;) next |= king_attacks(pop_lsb(g));
            grown = next & b & ~part;
            part |= grown;
        }
        parts.push_back(part);
        b &= ~part;
    }
    return parts;
}

// The squares of the units of s that have no retraction on the board of s (pieces walled in,
// pawns with no square behind them; pawns on their second rank apart).
Bitboard stuck_units(const Setup& s) {
    Cage all;
    for (int i = 0; i < SQUARE_NB; ++i)
        if (!s.board[i].empty()) all.put(Square(i), make_piece(s.board[i].color, s.board[i].walk));
    Bitboard stuck = 0;
    for (int i = 0; i < SQUARE_NB; ++i) {
        const Piece p = all.board[i];
        if (p.empty() || unmoved_pawn(p, Square(i))) continue;
        Cage g = all;
        g.stm = ~p.color;
        std::vector<Cage> out;
        CageSearch(~Bitboard(0), 1).unit_retractions(g, Square(i), out);
        if (out.empty()) stuck |= square_bb(Square(i));
    }
    return stuck;
}

// Whether p on s is a unit a castling right on s may name: the king on e1 (e8) or a rook on a
// corner of its side's first rank (a right on another square, which Position::load refuses,
// freezes nothing).
bool castling_unit(Piece p, Square s) {
    const int f = file_of(s), r = rank_of(s);
    return r == (p.color == WHITE ? 0 : 7) && ((f == 4 && p.walk == KING) || ((f == 0 || f == 7) && p.walk == ROOK));
}

// The squares of the kings of s.
Bitboard king_squares(const Setup& s) {
    Bitboard kings = 0;
    for (int i = 0; i < SQUARE_NB; ++i)
        if (s.board[i].walk == KING) kings |= square_bb(Square(i));
    return kings;
}

// The followed units of s on `region` (and its pawns on their second ranks), the others
// counted hidden.
Cage cage_start(const Setup& s, Bitboard region) {
    Cage start;
    start.stm = s.side_to_move;
    for (int i = 0; i < SQUARE_NB; ++i) {
        const Piece p = s.board[i];
        if (p.empty()) continue;
        // A king or rook that keeps a castling right never moved: followed wherever it stands,
        // as a pawn on its second rank.
        const Square sq = Square(i);
        if ((s.castling & square_bb(sq)) && castling_unit(p, sq)) start.frozen |= square_bb(sq);
        if ((region & square_bb(sq)) || unmoved_pawn(p, sq) || (start.frozen & square_bb(sq)))
            start.put(sq, make_piece(p.color, p.walk));
        else
            ++start.hidden[p.color][p.walk];
    }
    return start;
}

}  // namespace

bool cage_refutes_in(const Setup& s, Bitboard region, long max_states) {
    const Cage start = cage_start(s, region);
    // First following the units retractions bring back, then (a smaller search, often the
    // one that closes) leaving them hidden, then that one hiding besides every unit that may
    // leave the region in one retraction (fewer positions again: it closes JR-B-037's and
    // JR-B-022's cages with 100 and 2000 positions a region).
    return CageSearch(region, max_states, true).refutes(start) ||
           CageSearch(region, max_states, false).refutes(start) ||
           CageSearch(region, max_states, false, true).refutes(start);
}

bool cage_refutes(const Setup& s, long max_states) {
    const Bitboard kings = king_squares(s);
    const Bitboard stuck = stuck_units(s);
    const Bitboard near_stuck = stuck ? around(stuck, 1) : 0;
    std::vector<Bitboard> regions{around(kings, 1), around(kings, 2)};
    // Where the units with no retraction form groups apart (joined by king steps), the
    // squares next to each group first: a cage in one corner closes without the positions of
    // another group's units, which multiply its own (janko.at's JR-D-019: with b2xc3 taken
    // back, Black's king and bishops are shut in on a1-d3, while Black's corner holds units
    // that still move).
    // With a king in a group or next to it, the squares next to the king too: its
    // retractions off the group's squares leave the region otherwise, and with them what the
    // group's units attack there (janko.at's JR-D-136: with h2xRg1=Q taken back, the black
    // king on e2 beside the stuck corner d1-h1 may go back to d3 only past the pawn on c2).
    const auto with_kings = [&](Bitboard group) { return around(group | (kings & around(group, 1)), 1); };
    if (const std::vector<Bitboard> groups = connected_parts(stuck); groups.size() > 1)
        for (const Bitboard group : groups) {
            regions.push_back(around(group, 1));
            regions.push_back(with_kings(group));
        }
    regions.insert(regions.end(), {near_stuck, stuck ? with_kings(stuck) : 0, near_stuck | around(kings, 1),
                                   around(kings, 3), stuck ? around(stuck, 2) : 0});
    for (size_t i = 0; i < regions.size(); ++i) {
        // A region tried already (no units shut in, a corner) gives the same answer again.
        if (!regions[i] ||
            std::find(regions.begin(), regions.begin() + long(i), regions[i]) != regions.begin() + long(i))
            continue;
        if (cage_refutes_in(s, regions[i], max_states)) return true;
    }
    return false;
}

bool cage_refutes_wide(const Setup& s, long max_states) {
    if (cage_refutes(s, max_states)) return true;
    const Bitboard kings = king_squares(s);
    // Each king alone with the squares within one and two king steps of it, where the kings
    // stand apart: the other king's squares only add its positions (janko.at's JR-C-020 and
    // JR-C-032: with Bf8xRg7+ taken back, Black's rook came to g7 only from g8, into the
    // corner the bishops and pawns shut round Black's king on h8; under 100 positions).
    for (Bitboard b = kings; b;) {
        const Bitboard king = square_bb(pop_lsb(b));
        for (int steps : {1, 2})
            if (around(king, steps) != around(kings, steps) && cage_refutes_in(s, around(king, steps), max_states))
                return true;
    }
    // The three ranks at an edge that holds a king, with twice as many (janko.at's
    // JR-D-139: with a7xRb8=R taken back, Black's knights on a8 and e8, rooks on b8 and c8 and
    // White's king on d7 never move back, each retraction putting a king in check; with
    // h2xRg1=R, White's rooks on f1 and g1, knight on h1 and Black's king on e2 the same; under
    // 1000 positions each; JR-A-033: with g7xNf6 taken back, the kings on f8 and h8 and White's
    // rook on e7 shut in behind the pawns, about 6,000).
    const Bitboard low = rank_bb(0) | rank_bb(1) | rank_bb(2), high = rank_bb(5) | rank_bb(6) | rank_bb(7);
    for (const Bitboard band : {low, high})
        if ((kings & band) && cage_refutes_in(s, band, 2 * max_states)) return true;
    // Then the region within two king steps of the kings with six times as many (janko.at's
    // JR-A-055: the knight taken on h8 by g7xh8=N cannot have come into the corner; about
    // 30,000 positions for the search that leaves the units brought back hidden).
    if (kings && cage_refutes_in(s, around(kings, 2), 6 * max_states)) return true;
    // The same region following the units retractions bring back and hiding those that may
    // leave, the kings never (JR-D-073: with Be2xQd1 taken back, White's queen, the rook on f1
    // and Black's bishop are shut in on d1-f1 and e2 with the kings beside; 299 positions).
    if (kings && CageSearch(around(kings, 2), 6 * max_states, true, true, SQ_NONE, true)
                     .refutes(cage_start(s, around(kings, 2))))
        return true;
    // Last, the units and the squares next to them, hiding at once every unit that may leave
    // (janko.at's JR-A-040: before g7xNf8=Q the white king on f7 is shut in on the eighth rank
    // behind the black pawns, whose h-pawn and g-pawn may have crossed; about 100,000 positions).
    Bitboard occupied = 0;
    for (int i = 0; i < SQUARE_NB; ++i)
        if (!s.board[i].empty()) occupied |= square_bb(Square(i));
    const Bitboard zone = around(occupied, 1);
    if (CageSearch(zone, 50 * max_states, false, true).refutes(cage_start(s, zone))) return true;
    // Then the half of the board that holds both kings, ranks 1-4 or ranks 5-8, if one does,
    // the same way with 30 times as many (janko.at's JR-D-022: with Kf1xNe1 taken back, the
    // black king on f1 came into the pocket f1-h1 only over e3, where the white pawns d2 and f2
    // kept it out until both had stepped up, and the knight on e1 only from d3 or f3 before
    // they did; between 60,000 and 100,000 positions, while the zone of the units does not
    // close).
    const Bitboard lower = rank_bb(0) | rank_bb(1) | rank_bb(2) | rank_bb(3);
    for (const Bitboard half : {lower, ~lower})
        if ((kings & half) == kings && CageSearch(half, 30 * max_states, false, true).refutes(cage_start(s, half)))
            return true;
    // Last, the squares within one king step of the kings known exactly, with eight times as
    // many (janko.at's JR-D-130: with f3xBe4 taken back, the unit that shielded White's king
    // on h1 from Black's queen on f1 when Black's king came to f2 can neither leave g1 and h1
    // again nor have been taken there; about 25,000 positions), then those and the squares
    // the pieces on them can have come from by one step (JR-D-151: with a2xNb1=B taken back,
    // the white bishop and queen shut in at e7 and f8 beside Black's bishop on d8 and pawn on
    // d6; 20,000 to 40,000 positions), then the squares within two king steps.
    if (!kings) return false;
    const Bitboard near = around(kings, 1);
    const std::array<Bitboard, 3> regions{near, with_origins(s.board, near), around(kings, 2)};
    // A region the same as the one before it is not searched again.
    for (size_t i = 0; i < regions.size(); ++i)
        if ((i == 0 || regions[i] != regions[i - 1]) && cage_refutes_exact(s, regions[i], regions[i], 8 * max_states))
            return true;
    return false;
}

// A lower bound of the captures c's pawns made: the fewest files c's pawns on the board
// changed, each from a home file of its own no farther than the ranks it advanced (0 when no
// such homes exist: nothing is claimed).
int fewest_pawn_captures(const Setup& s, Color c) {
    std::vector<std::pair<int, int>> pawns;  // file, ranks advanced
    for (int i = 0; i < SQUARE_NB; ++i)
        if (s.board[i].walk == PAWN && s.board[i].color == c)
            pawns.push_back({file_of(Square(i)), relative_rank(c, rank_of(Square(i))) - 1});
    if (pawns.size() > 8) return 0;
    // cost[mask]: the fewest file changes of the first popcount(mask) pawns given the homes
    // of mask.
    constexpr int kNone = 1 << 20;
    std::array<int, 256> cost;
    cost.fill(kNone);
    cost[0] = 0;
    for (unsigned mask = 0; mask < 256; ++mask) {
        const int i = popcount(Bitboard(mask));
        if (cost[mask] == kNone || i >= int(pawns.size())) continue;
        for (int h = 0; h < 8; ++h) {
            const int d = std::abs(h - pawns[size_t(i)].first);
            if ((mask & (1u << h)) || d > pawns[size_t(i)].second) continue;
            cost[mask | (1u << h)] = std::min(cost[mask | (1u << h)], cost[mask] + d);
        }
    }
    int best = kNone;
    for (unsigned mask = 0; mask < 256; ++mask)
        if (popcount(Bitboard(mask)) == int(pawns.size())) best = std::min(best, cost[mask]);
    return best == kNone ? 0 : best;
}

// Tracks in `start` up to eight followed pieces of s (kings apart) that the static analysis
// proves were not promoted on some squares of their side's last rank (the start position with
// the piece marked promoted there, LegalityMarks::promoted_unit, is illegal): those on that
// rank first, then the nearest to it; `promotable` gets the squares left as files. A
// retraction that takes the promotion of such a unit back elsewhere is then no history's
// (janko.at's JR-D-151: with a2xNb1=B taken back, White's g8 bishop was not promoted on g8,
// its pawn would need too many captures).
void track_promotions(const Setup& s, Cage& start, std::array<std::uint8_t, 8>& promotable) {
    std::array<std::pair<int, Square>, SQUARE_NB> found;
    std::array<std::uint8_t, SQUARE_NB> files{};
    int n = 0;
    for (int i = 0; i < SQUARE_NB; ++i) {
        const Square sq = Square(i);
        const Piece p = start.board[sq];
        if (p.empty() || p.walk == KING || p.walk == PAWN || s.board[sq] != p) continue;
        LegalityMarks marks;
        marks.promoted_unit = sq;
        std::uint8_t allowed = 0;
        for (int f = 0; f < 8; ++f) {
            marks.promoted_on = square_bb(make_square(f, p.color == WHITE ? 7 : 0));
            if (!analyze_orthodox_legality(s.board, s.side_to_move, 0, SQ_NONE, marks).illegal) allowed |= 1u << f;
        }
        if (allowed == 0xFF) continue;
        files[sq] = allowed;
        found[size_t(n++)] = {7 - relative_rank(p.color, rank_of(sq)), sq};
    }
    std::sort(found.begin(), found.begin() + n);
    for (int i = 0; i < std::min(n, 8); ++i) {
        start.tracked[size_t(i)] = std::uint8_t(found[size_t(i)].second);
        promotable[size_t(i)] = files[found[size_t(i)].second];
    }
}

bool cage_refutes_exact(const Setup& s, Bitboard region, Bitboard exact, long max_states) {
    // The kings are followed wherever they go; no square of the fourth and fifth ranks is
    // known exactly (a hidden pawn may take a pawn there en passant, landing off it).
    region |= king_squares(s);
    exact &= region & ~(rank_bb(3) | rank_bb(4));
    Cage start = cage_start(s, region);
    for (Color c : {WHITE, BLACK}) {
        for (Walk w = KING; w <= PAWN; ++w) start.phantom[c] |= start.hidden[c][w] != 0;
        start.hidden[c] = {};
        if (promoted_nothing(s.board, c)) start.promotions[c] = 0;
    }
    // Each unit a side misses was taken by the other side; the other side's pawns took at
    // least fewest_pawn_captures of them, its pieces at most the rest.
    std::array<int, COLOR_NB> units{};
    for (int i = 0; i < SQUARE_NB; ++i)
        if (!s.board[i].empty()) ++units[s.board[i].color];
    for (Color c : {WHITE, BLACK}) {
        const int taken = std::clamp(16 - units[~c], 0, 16);
        start.captures[c] = std::uint8_t(taken);
        start.piece_captures[c] = std::uint8_t(std::max(0, taken - fewest_pawn_captures(s, c)));
    }
    CageSearch search(region, max_states, true, false, SQ_NONE, false, exact);
    // A bishop shut in at home and gone was taken there by a piece (bishops_taken_at_home),
    // counted now when its square is exact (the capture then a followed retraction's).
    for (Bitboard b = bishops_taken_at_home(s.board) & exact; b;) {
        const Square home = pop_lsb(b);
        const Color taker = rank_of(home) == 0 ? BLACK : WHITE;
        search.shut_homes_ |= square_bb(home);
        if (start.captures[taker] == 0 || start.piece_captures[taker] == 0) return true;
        --start.captures[taker];
        --start.piece_captures[taker];
    }
    track_promotions(s, start, search.promotable_);
    return search.refutes(start);
}

bool promoted_on_its_square(const Setup& s, Square q, long max_states) {
    const Piece p = s.board[q];
    if (p.empty() || p.walk == KING || p.walk == PAWN || relative_rank(p.color, rank_of(q)) != 7) return false;
    // The unit's last rank and the two in front of it.
    const int r = rank_of(q), step = r == 0 ? 1 : -1;
    const Bitboard region = rank_bb(r) | rank_bb(r + step) | rank_bb(r + 2 * step);
    Cage start = cage_start(s, region);
    start.pinned = true;
    return CageSearch(region, max_states, true, false, q).refutes(start) ||
           CageSearch(region, max_states, false, false, q).refutes(start) ||
           CageSearch(region, max_states, false, true, q).refutes(start);
}

}  // namespace rebirth
