#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <optional>
#include <string>

#include "rebirth/bitboard.h"
#include "rebirth/legality.h"
#include "rebirth/legality_proof.h"
#include "rebirth/position.h"
#include "rebirth/proof_builder.h"
#include "rebirth/retro_certificate.h"
#include "rebirth/setup.h"
#include "test_util.h"

using namespace rebirth;

namespace {

// The game's text (certificate_text) replayed move by move from the game array, matched by
// text against the legal moves (check_certificate_text): "" when it reaches the diagram.
std::string replay(const Setup& diagram, const std::vector<Move>& game) {
    RetroCertificate cert;
    cert.game = game;
    return check_certificate_text(diagram, certificate_text(cert, {}), {}, 0);
}

BuildLimits nodes_only(long nodes) {
    BuildLimits limits;
    limits.seconds = 0;
    limits.max_nodes = nodes;
    return limits;
}

}  // namespace

// A position two moves from the game array and one with a capture on each side: games found
// and replayed, ending with the diagram's side to move.
TEST(ProofBuilder, ReachesNearbyDiagrams) {
    for (const char* fen : {"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 1",
                            "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR b - - 0 1",
                            "rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1"}) {
        const rebirth::Setup diagram = parse_fen(fen);
        const auto game = build_proof_game(diagram, nodes_only(4000));
        ASSERT_TRUE(game) << fen;
        EXPECT_EQ(replay(diagram, *game), "") << fen;
    }
}

// The side to move counts: with every unit on its game-array square only knights can have
// moved, and a knight's way back home has an even number of moves, so White has always made
// as many moves as Black: the game array with Black to move is never reached, and no game
// is claimed.
TEST(ProofBuilder, NeverReachesTheGameArrayWithBlackToMove) {
    const rebirth::Setup diagram = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1");
    EXPECT_FALSE(build_proof_game(diagram, nodes_only(1000)));
}

// A diagram with more units than the game array's has no game: nothing, at once.
TEST(ProofBuilder, NothingForMoreUnitsThanTheGameArray) {
    const rebirth::Setup diagram = parse_fen("rnbqkbnr/pppppppp/8/8/8/Q7/PPPPPPPP/RNBQKBNR w - - 0 1");
    EXPECT_FALSE(build_proof_game(diagram, nodes_only(1000)));
}

// A claimed castling right must hold at the end, and a claimed en passant square must be the
// last move's double step: a game that only reaches the units is no proof.
TEST(LegalityProof, RightsOfTheDiagramAreKept) {
    const LegalityProof plain =
        judge_legality(parse_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 1"), 3, nodes_only(4000));
    ASSERT_EQ(plain.verdict, LegalityProof::Verdict::Legal) << plain.reason;
    const LegalityProof ep =
        judge_legality(parse_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 1"), 3, nodes_only(4000));
    ASSERT_EQ(ep.verdict, LegalityProof::Verdict::Legal) << ep.reason;
    ASSERT_FALSE(ep.game.empty());
    EXPECT_EQ(square_name(ep.game.back().from), "e7");
    EXPECT_EQ(square_name(ep.game.back().to), "e5");
    // The game array itself: the empty game, with every right kept.
    const LegalityProof array =
        judge_legality(parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), 3, nodes_only(1000));
    EXPECT_EQ(array.verdict, LegalityProof::Verdict::Legal) << array.reason;
    EXPECT_TRUE(array.game.empty());
}

// marks_broken: a move from or onto a frozen square breaks the mark (so does castling with a
// frozen rook); a unit marked promoted must have come from a promotion, however far it moved
// after it. The moves are taken as given (no replay).
TEST(LegalityProof, MarksBrokenByAGame) {
    const auto move = [](Square from, Square to, MoveKind kind = MoveKind::Normal) {
        Move m;
        m.from = from;
        m.to = to;
        m.kind = kind;
        if (kind == MoveKind::Promotion) m.promotion = QUEEN;
        return m;
    };
    const std::vector<Move> knights{move(SQ_G1, SQ_F3), move(SQ_G8, SQ_F6), move(SQ_F3, SQ_G1)};
    EXPECT_EQ(marks_broken(knights, {square_bb(SQ_B1) | square_bb(SQ_E8), 0}), "");
    EXPECT_EQ(marks_broken(knights, {square_bb(SQ_G1), 0}), "half-move 1 moves the unit of g1, marked frozen");
    EXPECT_EQ(marks_broken({move(SQ_E1, SQ_G1, MoveKind::Castling)}, {square_bb(SQ_H1), 0}),
              "half-move 1 moves the unit of h1, marked frozen");
    const std::vector<Move> queen{move(SQ_A7, SQ_A8, MoveKind::Promotion), move(SQ_A8, SQ_A5), move(SQ_D1, SQ_D4)};
    EXPECT_EQ(marks_broken(queen, {0, square_bb(SQ_A5)}), "");
    EXPECT_EQ(marks_broken(queen, {0, square_bb(SQ_D4)}),
              "the unit on d4, marked promoted, is no promoted unit in the game");
    // A square marked taken there: its unit never moves and a piece takes it there (1.Nc3 b6
    // 2.Nd5 Nf6 3.Nxc7+ Qxc7 4.Nf3 e6 5.Nd4 Bb4 6.Nb5 O-O 7.Na7 Ne4 8.Nxc8); not taken, taken by a
    // pawn (5.axb8=Q) or moved (2...Nf6), it is broken.
    LegalityMarks taken;
    taken.taken_home = square_bb(SQ_C8);
    const std::vector<Move> raid{move(SQ_B1, SQ_C3), move(SQ_B7, SQ_B6), move(SQ_C3, SQ_D5),
                                 move(SQ_G8, SQ_F6), move(SQ_D5, SQ_C7), move(SQ_D8, SQ_C7),
                                 move(SQ_G1, SQ_F3), move(SQ_E7, SQ_E6), move(SQ_F3, SQ_D4),
                                 move(SQ_F8, SQ_B4), move(SQ_D4, SQ_B5), move(SQ_E8, SQ_G8, MoveKind::Castling),
                                 move(SQ_B5, SQ_A7), move(SQ_F6, SQ_E4), move(SQ_A7, SQ_C8)};
    EXPECT_EQ(marks_broken(raid, taken), "");
    EXPECT_EQ(marks_broken(std::vector<Move>(raid.begin(), raid.end() - 1), taken),
              "the unit of c8, marked taken there, is never taken in the game");
    const std::vector<Move> pawn_takes{move(SQ_B2, SQ_B4), move(SQ_B7, SQ_B6), move(SQ_B4, SQ_B5),
                                       move(SQ_A7, SQ_A6), move(SQ_B5, SQ_A6), move(SQ_H7, SQ_H6),
                                       move(SQ_A6, SQ_A7), move(SQ_H6, SQ_H5), move(SQ_A7, SQ_B8, MoveKind::Promotion)};
    taken.taken_home = square_bb(SQ_B8);
    EXPECT_EQ(marks_broken(pawn_takes, taken),
              "half-move 9 takes the unit of b8 with a pawn, marked taken there by a piece");
    taken.taken_home = square_bb(SQ_G8);
    EXPECT_EQ(marks_broken(raid, taken), "half-move 4 moves the unit of g8, marked taken there");
}

// Retractor's LG-220: the black bishop g1 has no square to have come from (f2 and h2 are held)
// and the h2 pawn has: the bishop was promoted on g1, taking from h2, before the pawn now on
// h2 stepped there (a straight promotion from g2 is barred by the white pawn that never
// moved). promotion_retractions' first line takes back h3-h2, a white move and the promotion
// taking the white knight on its game-array square g1; each line, played forward from the
// position it leads back to, gives the diagram again.
TEST(LegalityProof, PromotionTakenBackForAShutInBishop) {
    const rebirth::Setup diagram = parse_fen("8/8/8/6k1/4K1p1/6P1/5PPp/6b1 w - - 0 1");
    const auto lines = promotion_retractions(diagram);
    ASSERT_FALSE(lines.empty());
    const std::vector<UnMove>& first = lines.front();
    ASSERT_EQ(first.size(), 3u);
    EXPECT_EQ(square_name(first[0].move.from), "h3");
    EXPECT_EQ(square_name(first[0].move.to), "h2");
    EXPECT_EQ(square_name(first[2].move.from), "h2");
    EXPECT_EQ(square_name(first[2].move.to), "g1");
    EXPECT_EQ(first[2].move.kind, MoveKind::Promotion);
    EXPECT_EQ(first[2].move.promotion, BISHOP);
    EXPECT_EQ(first[2].uncaptured, KNIGHT);
    for (const std::vector<UnMove>& line : lines) {
        rebirth::Setup earlier = diagram;
        for (const UnMove& u : line) earlier = retract(earlier, u);
        Position pos;
        pos.set(earlier);
        for (auto it = line.rbegin(); it != line.rend(); ++it) {
            UndoInfo undo;
            pos.do_move(it->move, undo);
        }
        EXPECT_TRUE(same_units(pos.to_setup().board, diagram.board));
        EXPECT_EQ(pos.side_to_move(), diagram.side_to_move);
    }
    // A diagram whose pieces all have squares to have come from and match the game array's
    // count gets no line.
    EXPECT_TRUE(promotion_retractions(parse_fen("4k3/8/8/8/8/8/8/R3K3 b - - 0 1")).empty());
}

// Four of Retractor's legal labels with a promoted bishop that the search of a game to the
// diagram does not find within 4000 positions a search: LG-217 (the bishop g8 shut in by f7
// and h7, the white pawn g7 come by a capture after the promotion: taken back, the unit it took
// moves off g7), LG-220 (the bishop g1 above), LG-223 (the white bishop f3 of light squares,
// Bf1 shut in at home by e2 and g2: promoted on g8 from h7) and LG-229 (two white bishops of
// light squares). Through their promotions taken back each gets a game, replayed from its text.
TEST(LegalityReference, PromotedBishopsGetGamesThroughTheirPromotions) {
    for (const char* fen :
         {"6B1/5pPp/6p1/6k1/4K3/8/8/8 w - - 0 1", "8/8/8/6k1/4K1p1/6P1/5PPp/6b1 w - - 0 1",
          "4k3/1p1p1pp1/8/8/8/5B2/4PPPP/4K3 w - - 0 1", "2b1k3/pp1p4/8/8/4B3/3B2P1/4PP1P/4K3 b - - 0 1"}) {
        const rebirth::Setup diagram = parse_fen(fen);
        EXPECT_FALSE(build_proof_game(diagram, nodes_only(4000))) << fen;
        const LegalityProof proof = judge_legality(diagram, 3, nodes_only(4000));
        ASSERT_EQ(proof.verdict, LegalityProof::Verdict::Legal) << fen << ": " << proof.reason;
        EXPECT_EQ(replay(diagram, proof.game), "") << fen;
    }
}

// Retractor's LG-079 (`legal`): three bishops of each side are promoted (two of one square
// colour; the game-array bishops c1, f1 and c8 shut in at home by pawns that never moved, f8 at
// home), six promotions that no search of a game to the diagram, nor any one promotion taken
// back, finds within thousands of positions. The positions before the promotions
// (promotion_stagings) each take some of them back, every promoted bishop gone for a pawn of its
// side, the first all six; no pawn put there attacks the other side's king (the pawn that would,
// on f7 beside the king e8, stands a square back), and none is refuted by the static analysis.
// Through the first, a game in two legs: from the game array to it, then from it to the
// diagram, replayed from its text.
TEST(LegalityReference, SixPromotedBishopsGetAGameThroughThePositionBeforeThePromotions) {
    const rebirth::Setup diagram = parse_fen("4kb2/1p1pp1p1/2bbb3/8/3BBB2/8/1P1PP1P1/4K3 b - - 0 1");
    const std::vector<rebirth::Setup> stagings = promotion_stagings(diagram);
    ASSERT_FALSE(stagings.empty());
    for (size_t i = 0; i < stagings.size(); ++i) {
        const rebirth::Setup& t = stagings[i];
        std::array<int, COLOR_NB> bishops{}, pawns{};
        Bitboard kings[COLOR_NB] = {0, 0};
        for (int sq = 0; sq < SQUARE_NB; ++sq) {
            const Piece p = t.board[sq];
            if (p.walk == BISHOP) ++bishops[p.color];
            if (p.walk == PAWN) ++pawns[p.color];
            if (p.walk == KING) kings[p.color] |= square_bb(Square(sq));
        }
        for (Color c : {WHITE, BLACK}) {
            // Each bishop taken back is a pawn again (Black keeps its game-array f8 too).
            EXPECT_EQ(bishops[c] + pawns[c], c == WHITE ? 7 : 8) << to_fen(t);
            if (i == 0) {
                EXPECT_EQ(bishops[c], c == WHITE ? 0 : 1) << to_fen(t);  // all but the game-array f8
            }
        }
        for (int sq = 0; sq < SQUARE_NB; ++sq) {
            const Piece p = t.board[sq];
            if (p.walk == PAWN && diagram.board[sq].walk != PAWN) {
                EXPECT_FALSE(pawn_attacks(p.color, Square(sq)) & kings[~p.color]) << to_fen(t);
            }
        }
        EXPECT_FALSE(analyze_orthodox_legality(t.board, t.side_to_move).illegal) << to_fen(t);
    }
    const auto tail = build_game_between(stagings.front(), diagram, nodes_only(4000));
    ASSERT_TRUE(tail);
    auto game = build_proof_game(stagings.front(), nodes_only(4000));
    ASSERT_TRUE(game);
    game->insert(game->end(), tail->begin(), tail->end());
    EXPECT_EQ(replay(diagram, *game), "");
    // judge_legality finds it so too: LegalLabelsGetReplayedGames.
}

namespace {

// A game through one of promotion_stagings' positions: from the game array to it, then from it
// to the diagram, each leg within 4000 positions a search; nothing when none gives one.
std::optional<std::vector<Move>> game_through_stagings(const rebirth::Setup& diagram) {
    for (const rebirth::Setup& t : promotion_stagings(diagram)) {
        const auto tail = build_game_between(t, diagram, nodes_only(4000));
        if (!tail) continue;
        auto game = build_proof_game(t, nodes_only(4000));
        if (!game) continue;
        game->insert(game->end(), tail->begin(), tail->end());
        return game;
    }
    return std::nullopt;
}

}  // namespace

// Two of Retractor's other legal labels (data/retro/retractor_legality.jsonl). LG-219: the white
// bishop a7 behind the black pawns b6 and c7, the only white unit but the king and the pawn a6;
// it has an empty square beside it (b8) and its side no second bishop, but no game-array square
// of a bishop reaches a7 round the pawns on the board, so it is taken for a promoted unit: the
// position before its promotion (a7xNb8=B) gets a game. LG-224: two white queens, one of them
// promoted (the a- and b-pawns are gone, and a promotion square on f8 to h8 needs four captures
// or more from either): both taken back at once need more captures than Black's missing units
// allow, so the positions taken back hold one queen each, and through one of them a game.
TEST(LegalityReference, PromotionsTakenBackBehindPawnsAndOneOfTwoQueens) {
    const rebirth::Setup bishop = parse_fen("8/Bpp5/Pp6/6k1/4K3/8/8/8 w - - 0 1");
    const auto bishop_game = game_through_stagings(bishop);
    ASSERT_TRUE(bishop_game);
    EXPECT_EQ(replay(bishop, *bishop_game), "");
    const rebirth::Setup queens = parse_fen("4k3/ppppp3/8/8/8/QQ6/2PPPPPP/4K3 w - - 0 1");
    const std::vector<rebirth::Setup> stagings = promotion_stagings(queens);
    ASSERT_FALSE(stagings.empty());
    for (const rebirth::Setup& t : stagings)
        EXPECT_EQ(std::count(t.board.begin(), t.board.end(), Piece{QUEEN, WHITE}), 1) << to_fen(t);
    const auto queen_game = game_through_stagings(queens);
    ASSERT_TRUE(queen_game);
    EXPECT_EQ(replay(queens, *queen_game), "");
}

// Retractor's LG-145 with its mark: the white king e1 never moves and neither do the pawns a2
// to e2, so the rook a1, the bishop c1 and the queen d1 never leave the first rank's a1-d1
// squares, which no black unit enters but by a knight's leap (from b3, c3, d3, e3 or f2; a black
// pawn never gets past the second rank's white pawns). The diagram keeps none of them, so
// black knights take them there: the game found replays to the diagram, never moves e1, and
// takes at least three white units on a1-d1, each by a black knight, no other black unit ever
// standing there.
TEST(ProofBuilder, UnitsShutInBehindAFrozenKingAreTakenByKnights) {
    const rebirth::Setup diagram = parse_fen("4k3/8/5q2/8/8/8/PPPPP3/4K3 w - - 0 1");
    const auto game = build_proof_game(diagram, nodes_only(4000), square_bb(SQ_E1));
    ASSERT_TRUE(game);
    EXPECT_EQ(replay(diagram, *game), "");
    Position pos;
    pos.set(parse_fen(kGameArrayFen));
    const Bitboard corner = square_bb(SQ_A1) | square_bb(SQ_B1) | square_bb(SQ_C1) | square_bb(SQ_D1);
    int taken = 0;
    for (const Move& m : *game) {
        EXPECT_FALSE(touched_squares(m) & square_bb(SQ_E1));
        const Piece mover = pos.piece_on(m.from);
        if (mover.color == BLACK && (square_bb(m.to) & corner)) {
            EXPECT_EQ(mover.walk, KNIGHT) << "a black unit other than a knight on the first rank";
            if (!pos.piece_on(m.to).empty()) ++taken;
        }
        UndoInfo u;
        pos.do_move(m, u);
    }
    EXPECT_GE(taken, 3);
}

// Retractor's legality labels (../shared/reference/retro/legality.jsonl), each judged with the
// marks of its `constraints` (units that never moved or were promoted): no `illegal` label is
// ever called legal (a game found would contradict its proof), no `legal` label is called
// illegal, and at least 37 of the 40 `legal` labels get a game from the game array that keeps
// their marks (4000 positions per search, no time limit: the count does not depend on the
// machine), each replayed from its text; among them the double checks by en passant (LG-025,
// LG-028), reached through their forced last moves, three that only the searches taking equal
// priorities in hashed order find (LG-067 and LG-070, a bishop promoted on a corner square;
// LG-184, two rooks outside a shut a1 corner, one of them promoted), six of the seven with
// frozen units (LG-145, -151, -160, -163, -193, -226), four promoted bishops reached through
// their promotions taken back (LG-217, -220, -223, -229), three that only the searches
// going round the fixed units find (LG-091, LG-145, LG-235: units shut in and taken where they
// stand), and LG-121, whose queen, rook and king on f1-h1 behind unmoved pawns come there in
// that order only by castling (corridors_allow keeps the search out of the positions whose
// king walked past the rook's file). A label with marks left unresolved is searched again with
// twice the positions: LG-148, whose white king e1 is frozen (all of White's 15 captures made
// by the other units), gets its game of 65 half-moves then (8000 positions a search, about 2 s;
// with 4000 only its bare diagram got a game, moving the king). LG-079's six promoted bishops
// get theirs through the position before all the promotions (SixPromotedBishopsGetAGame...):
// at least 39 in all. LG-088 stays unresolved: units freed from a strong cage in a set order
// (its game needs 18,000 positions a search, StrongCageLG088GetsAGame).
TEST(LegalityReference, LegalLabelsGetReplayedGames) {
    const auto file = std::filesystem::path(REBIRTH_SHARED_DIR) / "reference" / "retro" / "legality.jsonl";
    int legal = 0, proved = 0, bare = 0;
    size_t shortest = 0, longest = 0;
    std::string unresolved, bare_only;
    for (const auto& j : test::read_jsonl(file)) {
        const std::string id = j["id"], expected = j["expected"];
        const rebirth::Setup diagram = parse_fen(j["fen"].get<std::string>());
        const LegalityMarks marks = test::label_marks(j);
        LegalityProof proof = judge_legality(diagram, 3, nodes_only(expected == "legal" ? 4000 : 1000), marks);
        // A legal label with marks left unresolved gets twice the positions (LG-148).
        if (expected == "legal" && !marks.empty() && proof.verdict == LegalityProof::Verdict::Unresolved)
            proof = judge_legality(diagram, 3, nodes_only(8000), marks);
        if (expected == "illegal") {
            EXPECT_NE(proof.verdict, LegalityProof::Verdict::Legal) << id;
            continue;
        }
        ++legal;
        EXPECT_NE(proof.verdict, LegalityProof::Verdict::Illegal) << id << ": " << proof.reason;
        if (proof.verdict == LegalityProof::Verdict::Legal) {
            ++proved;
            EXPECT_EQ(replay(diagram, proof.game), "") << id;
            EXPECT_EQ(marks_broken(proof.game, marks), "") << id;
            shortest = shortest == 0 ? proof.game.size() : std::min(shortest, proof.game.size());
            longest = std::max(longest, proof.game.size());
        } else if (!marks.empty() &&
                   judge_legality(diagram, 3, nodes_only(4000)).verdict == LegalityProof::Verdict::Legal) {
            ++bare;
            bare_only += " " + id;
        } else {
            unresolved += " " + id;
        }
    }
    std::printf(
        "%d of %d legal labels proved by a game keeping their marks (%zu to %zu half-moves), %d more without the "
        "marks:%s; unresolved:%s\n",
        proved, legal, shortest, longest, bare, bare_only.c_str(), unresolved.c_str());
    EXPECT_EQ(legal, 40);
    EXPECT_GE(proved, 39);
}

// LG-217 (Retractor's "Promoted bishop on g8"): the white bishop on g8, shut in by the black
// pawns f7 and h7 that never moved, was promoted there by a pawn from g7, and the white pawn
// now on g7 came by a capture too, the black pawn g6 barring the file. Of the game search's
// variants only the one that weighs the estimate least (weight 1, the way to the nearest units
// to take) finds a game to the diagram within 32000 positions per search, replayed.
TEST(ProofBuilder, PromotedBishopOnG8GetsAGame) {
    const rebirth::Setup diagram = parse_fen("6B1/5pPp/6p1/6k1/4K3/8/8/8 w - - 0 1");
    const auto game = build_proof_game(diagram, nodes_only(32000));
    ASSERT_TRUE(game);
    EXPECT_EQ(replay(diagram, *game), "");
}

// LG-088 (Retractor's "black strong cage test 2", `legal`): Black's c8 bishop, shut in by the
// unmoved b7 and d7, is gone and a knight stands on c8, the queen is gone too, and Black's other
// units of the eighth rank stand at home behind unmoved pawns but for g7 (the g-pawn on g6):
// the game opens and closes that cage in a set order. Its game comes from the search variant
// that walls the units that never move and weighs the way to the nearest units to take, after
// some 17,300 positions: with 18,000 a search (LegalLabelsGetReplayedGames gives 4000) the
// diagram gets a game, replayed.
TEST(LegalityReference, StrongCageLG088GetsAGame) {
    const rebirth::Setup diagram = parse_fen("r1n1kb1r/pppppp1p/6p1/3n4/1NP1P3/3P1P2/PP4PP/R2QKBN1 b - - 0 1");
    const auto game = build_proof_game(diagram, nodes_only(18000));
    ASSERT_TRUE(game);
    EXPECT_EQ(replay(diagram, *game), "");
}

// The variants of a round run at once on several threads, and the game of the least variant
// that finds one is taken: without a time limit the game is the one a single thread finds,
// move for move. Diagrams whose game comes from the first variant (bare kings) and from one
// taking equal priorities in hashed order (LG-070): the variants after the one that finds a
// game are stopped, the earlier ones run to their end.
TEST(ProofBuilder, ThreadsFindTheSameGame) {
    for (const std::string fen : {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "8/8/8/2K5/8/5k2/1P6/b7 w - - 0 1"}) {
        const rebirth::Setup diagram = parse_fen(fen);
        BuildLimits one = nodes_only(32000), two = nodes_only(32000);
        two.threads = 2;
        const auto game = build_proof_game(diagram, one);
        ASSERT_TRUE(game) << fen;
        EXPECT_EQ(replay(diagram, *game), "") << fen;
        const auto parallel = build_proof_game(diagram, two);
        ASSERT_TRUE(parallel) << fen;
        EXPECT_TRUE(*parallel == *game) << fen;
    }
}

// Within a time limit a diagram with few last moves shares the time with the positions they
// lead back to, in rounds (judge_legality): LG-025, a double check by the rook f2 and the
// bishop b2 that only the en passant capture f5xe6 gives (opening the f-file and the long
// diagonal at once), gets its game (the capture last) from the position before it. The limit is generous: the game
// takes about a third of a second in Release (the test runs under the sanitizers too, beside
// another suite).
TEST(LegalityProof, TimedRoundsReachTheDiagramThroughItsLastMoves) {
    const rebirth::Setup diagram = parse_fen("2K5/8/4Pk2/8/8/8/1B3R2/8 b - - 0 1");
    BuildLimits limits;
    limits.seconds = 60;
    const LegalityProof proof = judge_legality(diagram, 3, limits);
    ASSERT_EQ(proof.verdict, LegalityProof::Verdict::Legal) << proof.reason;
    EXPECT_EQ(replay(diagram, proof.game), "");
    ASSERT_FALSE(proof.game.empty());
    EXPECT_EQ(proof.game.back().kind, MoveKind::EnPassant);
}
