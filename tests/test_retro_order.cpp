#include <gtest/gtest.h>

#include <cctype>
#include <random>
#include <string>

#include "rebirth/bitboard.h"
#include "rebirth/movegen.h"
#include "rebirth/position.h"
#include "rebirth/retro_order.h"
#include "rebirth/setup.h"

using namespace rebirth;

namespace {

// The position with the board turned over and the colours swapped (White's a1 becomes
// Black's a8), the other side to move: its answer is the same.
std::string colours_swapped(const std::string& fen) {
    const size_t space = fen.find(' ');
    std::string placement = fen.substr(0, space), out;
    std::vector<std::string> ranks;
    for (size_t start = 0;;) {
        const size_t slash = placement.find('/', start);
        ranks.push_back(placement.substr(start, slash - start));
        if (slash == std::string::npos) break;
        start = slash + 1;
    }
    for (size_t i = ranks.size(); i-- > 0;) {
        for (char ch : ranks[i])
            out += std::isupper(static_cast<unsigned char>(ch)) ? char(std::tolower(ch)) : char(std::toupper(ch));
        if (i) out += '/';
    }
    return out + (fen[space + 1] == 'w' ? " b" : " w") + " - - 0 1";
}

// janko.at's duplex record JR-D-136 (Keym; ../shared/reference/retro/lastmoves.jsonl, answers
// PxN=Q and PxN=Q) with Black's h2xRg1=Q taken back (data/retro/hand-proofs/JR-D-136.md, proof
// B): d2 and g2 never moved and c2, d2, e2, g2 guard d3, e3, f3, so the black king on e2 came
// from d1, e1, f1 or f2; the bishop on d1 came past e2 (before the king), the bishop on e1 past
// f2 or e2, the rook on f2 from e2, from f1 or past f3 (held by White's pawn since e2xf3 or
// f2-f3), the queen on f1 from e1, e2, f2 or g1, White's rook on g1 from f1 or h1, the knight on
// h1 from f2 or g3. Every choice closes a cycle but the knight's from g3, where it attacked the
// king on e2 that had come there before. With the knight on g1 (the published answer) it
// may have been on g1 all game: no refutation.
TEST(RetroOrder, UnitsInTheCornerOfJankoD136CameInNoOrder) {
    const std::string before_rook = "4nQQB/2pp1ppK/3p4/8/8/5P2/PPPPkrPp/3bbqRN b - - 0 1";
    const std::string before_knight = "4nQQB/2pp1ppK/3p4/8/8/5P2/PPPPkrPp/3bbqNN b - - 0 1";
    EXPECT_TRUE(order_refutes(parse_fen(before_rook)));
    EXPECT_TRUE(order_refutes(parse_fen(colours_swapped(before_rook))));
    EXPECT_FALSE(order_refutes(parse_fen(before_knight)));
    EXPECT_FALSE(order_refutes(parse_fen(colours_swapped(before_knight))));
    // The game array, and a position after White castled short.
    EXPECT_FALSE(order_refutes(parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")));
    EXPECT_FALSE(order_refutes(parse_fen("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 0 1")));
}

// JR-D-136 with White's e7xRf8=Q taken back (data/retro/hand-proofs/JR-D-136.md, proof A, C1 to
// C5): Bh8 was promoted on h8 before the king came to h7 from g8, the queen came to g8 after it
// (from f8 or along the rank past it), the rook to f8 after the queen (past e8 or from it), the
// knight to e8 after the rook, from d6 (from f6 it attacked the king on h7, there before it),
// and the pawn on d6, Black's e-pawn, after the knight, its one move from e7. So f8 was entered
// while e7 and g7 still held Black's pawns: the bishop of f8, shut in, was taken there, and by a
// piece (no white pawn stood on e7 or g7). With the knight on f8 (the published e7xNf8=Q) the
// knight jumped to f8, the chain breaks: no such fact.
TEST(RetroOrder, BishopOfF8TakenAtHomeBeforeJankoD136sE7xRf8) {
    const std::string before_rook = "4nrQB/2ppPppK/3p4/8/8/5P2/PPPPkrP1/3bbqqN w - - 0 1";
    const std::string before_knight = "4nnQB/2ppPppK/3p4/8/8/5P2/PPPPkrP1/3bbqqN w - - 0 1";
    EXPECT_EQ(order_facts(parse_fen(before_rook)).marks.taken_home, square_bb(SQ_F8));
    EXPECT_EQ(order_facts(parse_fen(colours_swapped(before_rook))).marks.taken_home, square_bb(SQ_F1));
    EXPECT_EQ(order_facts(parse_fen(before_knight)).marks.taken_home, 0u);
    EXPECT_EQ(order_facts(parse_fen(colours_swapped(before_knight))).marks.taken_home, 0u);
    EXPECT_EQ(order_facts(parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")).marks.taken_home, 0u);
}

// Random games in several styles (pawns rarely moving, so that units stay shut in behind them;
// captures; king walks; pieces only; castling whenever it can): no position reached is
// refuted, and a game-array square order_facts marks taken there lost its unit there, never
// moved, to a piece. Measured 2026-12-02 while writing it, with a driver of the same styles: 25
// million positions, none refuted (most with a search of some units left after the free ones);
// the facts on 4 million positions of ten styles (with back-rank raids while the pawns stay at
// home), none false, though random games seldom leave the order of a shut-in home square known.
TEST(RetroOrder, RandomGamesAreNeverRefuted) {
    int positions = 0;
    MoveList list;
    for (int style = 0; style < 5; ++style) {
        std::mt19937 rng(20261202 + unsigned(style));
        for (int game = 0; game < 100; ++game) {
            Position pos(parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
            Bitboard unmoved = rank_bb(0) | rank_bb(7), taken = 0;  // game-array units never moved; taken there
            for (int ply = 0; ply < 160; ++ply) {
                generate_legal(pos, list);
                if (list.size() == 0) break;
                std::vector<Move> pick;
                for (const Move& m : list) {
                    const Piece p = pos.piece_on(m.from);
                    const bool take = !pos.empty(m.to);
                    if ((style == 0 && (p.walk != PAWN || rng() % 8 == 0)) || (style == 1 && take) ||
                        (style == 2 && p.walk == KING) || (style == 3 && (p.walk != PAWN || take)) ||
                        (style == 4 && (m.kind == MoveKind::Castling || p.walk != PAWN)))
                        pick.push_back(m);
                }
                if (pick.empty() || rng() % 4 == 0)
                    for (const Move& m : list) pick.push_back(m);
                const Move m = pick[rng() % pick.size()];
                const Walk victim = pos.piece_on(m.to).walk;
                if ((unmoved & square_bb(m.to)) && victim != NO_WALK && victim != KING &&
                    pos.piece_on(m.from).walk != PAWN)
                    taken |= square_bb(m.to);
                unmoved &= ~touched_squares(m);
                UndoInfo undo;
                pos.do_move(m, undo);
                const rebirth::Setup s = pos.to_setup();
                ++positions;
                ASSERT_FALSE(order_refutes(s, 20000)) << to_fen(s) << " (style " << style << ", game " << game << ")";
                if (ply % 4 == 0) {
                    ASSERT_EQ(order_facts(s, 20000).marks.taken_home & ~taken, 0u) << to_fen(s);
                }
            }
        }
    }
    EXPECT_GT(positions, 50000);
}

}  // namespace
