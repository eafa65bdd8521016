#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "rebirth/goal.h"
#include "rebirth/movegen.h"
#include "rebirth/popeye_input.h"
#include "rebirth/position.h"
#include "rebirth/retractor.h"
#include "rebirth/retro.h"
#include "rebirth/retro_problem.h"
#include "rebirth/rules.h"
#include "rebirth/setup.h"
#include "rebirth/unmove.h"
#include "test_util.h"

namespace rebirth {
namespace {

std::vector<std::string> key_texts(const RetractorAnswer& a) {
    std::vector<std::string> out;
    for (const RetractorStep& k : a.keys) out.push_back(k.text);
    return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

RuleSet circe() { return resolve_rules({Condition{"Circe", {}}}, "<test>", 0); }
RuleSet anticirce() { return resolve_rules({Condition{"AntiCirce", {}}}, "<test>", 0); }

// The retractions of the side that did not move in s whose earlier position may be legal
// (the definition's "legal retraction", as the retractor is asked to use it).
std::vector<UnMove> legal(const Setup& s, int depth, const RuleSet* rules) {
    std::vector<UnMove> all, out;
    generate_unmoves(s, all, rules);
    for (const UnMove& u : all)
        if (may_be_legal(retract(s, u), depth, rules)) out.push_back(u);
    return out;
}

// The forward moves of the side to move in s (castling as the Codex presumes) that reach the
// aim, as the retractor writes them; en passant as s has it.
std::vector<std::string> aim_texts(Setup s, RetractorAim aim, const RuleSet* rules) {
    for (Color c : {WHITE, BLACK}) {
        const int r = c == WHITE ? 0 : 7;
        const bool king = s.board[make_square(4, r)] == make_piece(c, KING);
        for (int f : {0, 7})
            if (king && s.board[make_square(f, r)] == make_piece(c, ROOK))
                s.castling |= square_bb(make_square(f, r)) | square_bb(make_square(4, r));
    }
    SetupRules sr;
    sr.rules = rules;
    const Position pos(s, sr);
    MoveList list;
    generate_legal(pos, list);
    std::vector<std::string> out;
    for (const Move& m : list) {
        Position after = pos;
        UndoInfo u;
        after.do_move(m, u);
        const bool reached = aim == RetractorAim::Mate        ? goal_reached(after, u, Goal::Mate)
                             : aim == RetractorAim::Stalemate ? goal_reached(after, u, Goal::Stalemate)
                                                              : goal_forced_in_one(after, Goal::Mate);
        if (reached)
            out.push_back("1." + forward_notation(s, m, rules) +
                          (aim == RetractorAim::Mate        ? "#"
                           : aim == RetractorAim::Stalemate ? "="
                                                            : ""));
    }
    return out;
}

// Checks a solution tree against the definitions, independently of the search: every
// retraction is a legal one of its position; a White step either reaches the aim at once
// (its forward moves are exactly those that do) or has no forward win and lists every legal
// Black retraction that leaves White a legal retraction (none reaching the aim forward
// first, with forward defence), each answered by White retractions that win; k counts the
// White retractions left. Returns the number of lines checked.
int check_white(const Setup& s, const RetractorStep& w, int k, const RetractorSpec& spec, const RuleSet* rules) {
    EXPECT_EQ(w.side, WHITE);
    const std::vector<UnMove> options = legal(s, spec.depth, rules);
    EXPECT_NE(std::find(options.begin(), options.end(), w.retraction), options.end()) << w.text;
    const Setup before = retract(s, w.retraction);
    const std::vector<std::string> forward = aim_texts(before, spec.aim, rules);
    if (!w.forward.empty()) {
        EXPECT_EQ(w.forward, forward) << w.text;
        return 1;
    }
    EXPECT_TRUE(forward.empty()) << w.text;
    EXPECT_GT(k, 1) << w.text;
    int lines = 0;
    size_t expected = 0;
    // Under Høeg Black chooses the unit and its square (now, departure, kind, promotion) and
    // White the uncapture: each such choice of Black keeps at least one of its variants.
    const auto shape = [](const UnMove& u) {
        const Square now = u.capturer_now != SQ_NONE ? u.capturer_now : u.move.to;
        const int kind = u.move.kind == MoveKind::EnPassant ? int(MoveKind::Normal) : int(u.move.kind);
        return std::make_tuple(now, u.move.from, kind, int(u.move.promotion), u.rook_from);
    };
    std::vector<decltype(shape(w.retraction))> shapes_needed, shapes_listed;
    for (const UnMove& b : legal(before, spec.depth, rules)) {
        const Setup earlier = retract(before, b);
        if (legal(earlier, spec.depth, rules).empty()) continue;  // b itself not legal
        ++expected;
        if (std::find(shapes_needed.begin(), shapes_needed.end(), shape(b)) == shapes_needed.end())
            shapes_needed.push_back(shape(b));
        const auto it =
            std::find_if(w.next.begin(), w.next.end(), [&](const RetractorStep& n) { return n.retraction == b; });
        if (spec.type == RetractorType::Hoeg && it == w.next.end()) continue;  // White chose another uncapture
        EXPECT_NE(it, w.next.end()) << w.text << ": defence " << janko_notation(before, b, rules) << " missing";
        if (it == w.next.end()) continue;
        if (std::find(shapes_listed.begin(), shapes_listed.end(), shape(b)) == shapes_listed.end())
            shapes_listed.push_back(shape(b));
        if (spec.forward_defence) {
            EXPECT_TRUE(aim_texts(earlier, spec.aim, rules).empty()) << it->text;
        }
        EXPECT_FALSE(it->next.empty()) << it->text;
        for (const RetractorStep& reply : it->next) lines += check_white(earlier, reply, k - 1, spec, rules);
    }
    if (spec.type == RetractorType::Proca) {
        EXPECT_EQ(w.next.size(), expected) << w.text;
    } else {
        EXPECT_EQ(shapes_listed.size(), shapes_needed.size()) << w.text;
    }
    return lines;
}

void check_answer(const std::string& fen, const RetractorSpec& spec, const RuleSet* rules, int min_keys) {
    Setup s = parse_fen(fen + std::string(" b - - 0 1"));
    s.side_to_move = BLACK;
    s.castling = 0;
    const RetractorAnswer a = solve_retractor(s, spec, rules, 1);
    EXPECT_GE(static_cast<int>(a.keys.size()), min_keys) << fen << "\n" << retractor_text(a);
    int lines = 0;
    for (const RetractorStep& key : a.keys) lines += check_white(s, key, spec.retractions, spec, rules);
    EXPECT_GE(lines, min_keys);
    // The same on two threads.
    EXPECT_EQ(retractor_text(solve_retractor(s, spec, rules, 2)), retractor_text(a)) << fen;
}

// -1 & #1 on bKh8, wKg6, wRb1 (White moved last), worked out from the definitions (PDB
// S0000032 Proca, S0000018 Høeg). Proca: White chooses that its retraction took nothing:
// -1.Rb4-b1 & 1.Rb8# and -1.Kh6-g6 & 1.Rb8# win; -1.Rg1-b1 does not (no mate from g1);
// -1.Rh1-b1 and -1.Rb8-b1 are not legal (Black would stand in check with White to move).
// Høeg: Black decides what the retraction took, and a black queen on b1 (checking wKg6
// along b1-g6) or on g6 (beside the king) leaves White no mate: no key. Circe: the units
// Black could have lost on b1 or g6 (light squares) are reborn on a8, c8, d8, g8 or g7,
// all empty, so no retraction there uncaptures (RULES.md 6): the Høeg keys come back.
TEST(Retractor, UncaptureChoiceSeparatesProcaFromHoeg) {
    const rebirth::Setup diagram = parse_fen("7k/8/6K1/8/8/8/8/1R6 b - - 0 1");
    RetractorSpec spec;
    const RetractorAnswer proca = solve_retractor(diagram, spec);
    const std::vector<std::string> keys = key_texts(proca);
    EXPECT_EQ(proca.verdict(), "multiple");
    EXPECT_TRUE(has(keys, "Rb4-b1")) << retractor_text(proca);
    EXPECT_TRUE(has(keys, "Kh6-g6"));
    EXPECT_TRUE(has(keys, "Kf7-g6"));
    EXPECT_FALSE(has(keys, "Rg1-b1"));
    EXPECT_FALSE(has(keys, "Rh1-b1"));
    EXPECT_FALSE(has(keys, "Rb8-b1"));
    for (const RetractorStep& k : proca.keys)
        if (k.text == "Rb4-b1") {
            EXPECT_EQ(k.forward, std::vector<std::string>{"1.Rb4-b8#"});
        }

    spec.type = RetractorType::Hoeg;
    const RetractorAnswer hoeg = solve_retractor(diagram, spec);
    EXPECT_EQ(hoeg.verdict(), "none") << retractor_text(hoeg);

    const RuleSet rules = circe();
    const RetractorAnswer circe_hoeg = solve_retractor(diagram, spec, &rules);
    const std::vector<std::string> circe_keys = key_texts(circe_hoeg);
    EXPECT_EQ(circe_hoeg.verdict(), "multiple");
    EXPECT_TRUE(has(circe_keys, "Rb4-b1")) << retractor_text(circe_hoeg);
    EXPECT_TRUE(has(circe_keys, "Kh6-g6"));
    EXPECT_FALSE(has(circe_keys, "Rg1-b1"));
}

// Klan (White decides every uncapture) and Pacific (no uncaptures), Julia's Fairies'
// definitions: with one retraction Black never retracts, so Klan's keys are Proca's and
// Pacific's are Proca's that uncapture nothing. With two, Klan differs from Proca only in
// who chooses Black's uncaptures, White instead of Black, which never helps Black: every
// Proca key is a Klan key.
TEST(Retractor, KlanAndPacificFromTheirDefinitions) {
    const rebirth::Setup diagram = parse_fen("7k/8/6K1/8/8/8/8/1R6 b - - 0 1");
    RetractorSpec spec;
    const std::vector<std::string> proca = key_texts(solve_retractor(diagram, spec));
    spec.type = RetractorType::Klan;
    EXPECT_EQ(key_texts(solve_retractor(diagram, spec)), proca);
    spec.type = RetractorType::Pacific;
    std::vector<std::string> plain;
    for (const std::string& k : proca)
        if (k.find('x') == std::string::npos) plain.push_back(k);
    EXPECT_EQ(key_texts(solve_retractor(diagram, spec)), plain);
    EXPECT_TRUE(has(plain, "Rb4-b1"));
    spec.retractions = 2;
    spec.type = RetractorType::Proca;
    const std::vector<std::string> proca2 = key_texts(solve_retractor(diagram, spec));
    spec.type = RetractorType::Klan;
    const std::vector<std::string> klan2 = key_texts(solve_retractor(diagram, spec));
    for (const std::string& k : proca2) EXPECT_TRUE(has(klan2, k)) << k;
}

// Valerian Onitiu, 1st Prize Die Schwalbe 1934, "White retracts one move, then mates in one"
// (janko.at, Retros/Glossary/Retractor.htm): -1.O-O-O, after which Black's last move must
// have been g7-g5, so 1.h5xg6 e.p. mates. Proving g7-g5 takes more retro analysis than
// rebirth has: the published key must not be refuted (it is left unresolved or won), and
// no other first retraction may be called a key.
TEST(Retractor, OnitiuKeyIsNotRefuted) {
    const rebirth::Setup diagram = parse_fen("7N/1p1p1p1B/7R/6pP/5Ppk/2PP1Pbr/P2P1rPQ/2KR2bN b - - 0 1");
    const RetractorAnswer answer = solve_retractor(diagram, RetractorSpec{});
    for (const RetractorStep& k : answer.keys) EXPECT_EQ(k.text, "O-O-O") << retractor_text(answer);
    bool found = false;
    for (const auto* list : {&answer.keys, &answer.unresolved})
        for (const RetractorStep& k : *list) found = found || k.text == "O-O-O";
    EXPECT_TRUE(found) << retractor_text(answer);
}

// The solution trees follow the definitions (check_white) for -2 and -3 under Proca and Høeg,
// with and without forward defence, for the three aims, orthodox, Circe and Anti-Circe.
TEST(Retractor, SolutionTreesFollowTheDefinitions) {
    const RuleSet c = circe(), a = anticirce();
    struct Case {
        const char* fen;
        int n;
        RetractorAim aim;
        RetractorType type;
        bool fd;
        const RuleSet* rules;
        int min_keys;
    } cases[] = {
        {"7k/8/6K1/8/8/8/8/1R6", 2, RetractorAim::Mate, RetractorType::Proca, true, nullptr, 20},
        {"7k/8/6K1/8/8/8/8/1R6", 2, RetractorAim::Mate, RetractorType::Hoeg, true, nullptr, 0},
        {"7k/8/6K1/8/8/8/8/1R6", 2, RetractorAim::Mate, RetractorType::Hoeg, true, &c, 1},
        {"7k/5K2/8/8/8/8/8/6Q1", 1, RetractorAim::Stalemate, RetractorType::Proca, true, nullptr, 1},
        {"k7/2K5/8/8/8/8/8/1r6", 2, RetractorAim::Mate, RetractorType::Proca, true, &a, 0},
        {"k7/2K5/8/8/8/8/8/1r6", 2, RetractorAim::Mate, RetractorType::Proca, false, &a, 0},
        {"4k3/8/4K3/8/8/8/8/R6R", 2, RetractorAim::Mate, RetractorType::Proca, true, nullptr, 1},
        {"7k/8/5K2/8/8/8/6P1/6R1", 2, RetractorAim::SelfMate, RetractorType::Proca, true, nullptr, 0},
    };
    for (const Case& k : cases) {
        RetractorSpec spec;
        spec.retractions = k.n;
        spec.aim = k.aim;
        spec.type = k.type;
        spec.forward_defence = k.fd;
        SCOPED_TRACE(k.fen);
        check_answer(k.fen, spec, k.rules, k.min_keys);
    }
}

// Forward defence only refutes: without it every key stays a key; with one retraction Black
// never retracts, so it changes nothing. Under Høeg a shape wins only if each of its
// uncaptures does, each a Proca key with one retraction.
TEST(Retractor, ForwardDefenceAndHoegOnlyRemoveKeys) {
    for (const char* fen : {"7k/8/6K1/8/8/8/8/1R6", "k7/2K5/8/8/8/8/8/1Q6"}) {
        SCOPED_TRACE(fen);
        const rebirth::Setup s = parse_fen(fen + std::string(" b - - 0 1"));
        RetractorSpec spec;
        spec.retractions = 2;
        const RetractorAnswer with = solve_retractor(s, spec);
        spec.forward_defence = false;
        const RetractorAnswer without = solve_retractor(s, spec);
        for (const std::string& k : key_texts(with)) EXPECT_TRUE(has(key_texts(without), k)) << k;
        spec.retractions = 1;
        const RetractorAnswer one = solve_retractor(s, spec);
        spec.forward_defence = true;
        EXPECT_EQ(key_texts(solve_retractor(s, spec)), key_texts(one));
        spec.type = RetractorType::Hoeg;
        for (const std::string& k : key_texts(solve_retractor(s, spec))) EXPECT_TRUE(has(key_texts(one), k)) << k;
    }
}

// A time limit never invents a key or a refutation: what it settles agrees with the search
// without it, the rest is listed unresolved ("time limit"), and the verdict is then neither
// "unique" nor "none" unless the settled part proves it.
TEST(Retractor, TimeLimitLeavesChoicesUnresolved) {
    const rebirth::Setup s = parse_fen("7k/8/6K1/8/8/8/8/1R6 b - - 0 1");
    RetractorSpec spec;
    spec.retractions = 2;
    const RetractorAnswer full = solve_retractor(s, spec, nullptr, 1);
    spec.max_seconds = 1e-6;
    const RetractorAnswer cut = solve_retractor(s, spec, nullptr, 1);
    EXPECT_TRUE(cut.timed_out);
    ASSERT_FALSE(cut.unresolved.empty());
    for (const std::string& k : key_texts(cut)) EXPECT_TRUE(has(key_texts(full), k)) << k;
    for (const RetractorStep& u : cut.unresolved) {
        EXPECT_TRUE(u.timed_out) << u.text;
        EXPECT_NE(retractor_unresolved_text(u).find("time limit"), std::string::npos);
    }
    // Every first retraction is a key, unresolved, or refuted in the full answer too.
    std::vector<std::string> settled_or_not = key_texts(cut);
    for (const RetractorStep& u : cut.unresolved) settled_or_not.push_back(u.text);
    for (const std::string& k : key_texts(full)) EXPECT_TRUE(has(settled_or_not, k)) << k << " refuted under the limit";
    EXPECT_NE(cut.verdict(), "none");
    EXPECT_EQ(retractor_verdict(1, 1), "unresolved");
    EXPECT_EQ(retractor_verdict(2, 1), "multiple");
    EXPECT_EQ(retractor_verdict(0, 0), "none");
    EXPECT_EQ(retractor_verdict(1, 0), "unique");
}

// A key whose lines the time limit cuts stays a key: its value is settled before its tree is
// written. Crişan's Circe Assassin -5 & #1 (data/retro/circe_retractors.jsonl, crisan_px8832):
// White's first choice -1.Ke1-f2 wins by the values in about 2 s on one thread here (measured
// 2026-12-01: not settled with a limit of 1.6 s, settled with 2 s), and its tree (every Black
// defence, every White answer) does not fit in 300 s, so a limit of 10 s cuts it. Only that
// choice is searched, on one thread: with every choice on two threads the limit was 6 s, and
// on CI's loaded machine the value was once not settled in time (the key was then listed
// unresolved, which is right, but not what this test checks). That -1.Ke1-f2 wins is
// rebirth's own answer under RULES.md's Assassin rule (the source gives another key;
// data/retro/README.md): what this test checks is how a key whose lines were cut is listed,
// not the key.
TEST(Retractor, KeyWhoseLinesTheTimeLimitCutsStaysAKey) {
    const RuleSet assassin = resolve_rules({Condition{"Circe", {"Assassin"}}}, "<test>", 0);
    const rebirth::Setup diagram = parse_fen("6k1/5p2/8/8/4p3/8/5K2/8 b - - 0 1");
    RetractorSpec spec;
    spec.retractions = 5;
    spec.max_seconds = 10;
    const auto choices = retractor_first_choices(diagram, spec, &assassin);
    ASSERT_FALSE(choices.empty());
    ASSERT_EQ(choices[0].size(), 1u);
    const RetractorAnswer a = solve_retractor_choices(diagram, spec, &assassin, {choices[0]}, 1);
    EXPECT_TRUE(a.timed_out);
    ASSERT_EQ(a.keys.size(), 1u) << retractor_text(a);
    EXPECT_TRUE(a.unresolved.empty());
    const RetractorStep& key = a.keys[0];
    EXPECT_EQ(key.text, "Ke1-f2");
    EXPECT_TRUE(key.timed_out);
    EXPECT_EQ(key.value, RetractorValue::Win);
    EXPECT_TRUE(key.next.empty());
    EXPECT_EQ(retractor_key_text(key), "-1.Ke1-f2 !\n  (lines not written: time limit)\n");
    EXPECT_EQ(a.verdict(), "unique");
}

// Popeye-style input: the retractor's stipulation, Hoeg and Circe from a file (the Circe
// Høeg case above), French keywords, and the bad inputs named with file, line and word.
TEST(Retractor, PopeyeFiles) {
    const auto problems = parse_popeye(
        "BeginProblem\nPieces White Kg6 Rb1 Black Kh8\nStipulation -1 & #1\nOption Hoeg\nCondition Circe\n"
        "EndProblem\n",
        "p.inp");
    ASSERT_EQ(problems.size(), 1u);
    const RetroProblemReport report = solve_retro_problem(problems.front(), 1);
    EXPECT_EQ(report.verdict, "multiple");
    EXPECT_NE(report.text.find("-1.Kh6-g6 !\n  & 1.Rb1-b8#\n"), std::string::npos) << report.text;
    EXPECT_NE(report.text.find("-1.Rb4-b1 !\n  & 1.Rb4-b8#\n"), std::string::npos) << report.text;
    const auto fr =
        parse_popeye("DebutProbleme\nPieces Blanc Rg6 Tb1 Noir Rh8\nEnonce -1&#1\nOption Hoeg\nFinProbleme\n", "f.inp");
    EXPECT_EQ(solve_retro_problem(fr.front(), 1).verdict, "none");
    const auto error = [](const std::string& text) {
        try {
            parse_popeye(text, "bad.inp");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(
        error("BeginProblem\nPieces White Kg6 Rb1 Black Kh8\nStipulation -2 & #2\nEndProblem\n").find("bad.inp:3"),
        std::string::npos);
    EXPECT_NE(
        error("BeginProblem\nPieces White Kg6 Rb1 Black Kh8\nStipulation #2\nOption Hoeg\nEndProblem\n").find("'Hoeg'"),
        std::string::npos);
    EXPECT_NE(error("BeginProblem\nPieces White Kg6 Rb1 Black Kh8\nStipulation -1&#1\nOption Proca Hoeg\nEndProblem\n")
                  .find("contradicts Proca"),
              std::string::npos);
    EXPECT_NE(error("BeginProblem\nPieces White Kg6 Rb1 Black Kh8\nStipulation -1&#1\nOption WhiteToPlay\n"
                    "EndProblem\n")
                  .find("WhiteToPlay"),
              std::string::npos);
}

// One retraction or forward move of data/retro/circe_retractors.jsonl's lines (see its
// README): "Kg5xNh5{now e1}", "f7-f5/f6-f5" (either), "h7xRg8=N{reborn a8}{removed wB}".
// Whether u (a retraction of `position`) is that move: its unit, squares, taken unit and
// promotion, and each annotation (the unit standing now on a square: Anti-Circe; the taken
// unit reborn on a square; the unit an Assassin rebirth removed).
bool retraction_is(const Setup& position, const UnMove& u, const std::string& token) {
    const Move& m = u.move;
    if (token == "O-O" || token == "O-O-O")
        return m.kind == MoveKind::Castling && (file_of(m.to) == 6) == (token == "O-O");
    const auto walk_of = [](char c) {
        switch (c) {
            case 'K':
                return KING;
            case 'Q':
                return QUEEN;
            case 'R':
                return ROOK;
            case 'B':
                return BISHOP;
            case 'N':
                return KNIGHT;
            case 'P':
                return PAWN;
            default:
                return NO_WALK;
        }
    };
    size_t i = 0;
    const Walk unit = std::isupper(static_cast<unsigned char>(token[0])) ? walk_of(token[i++]) : PAWN;
    const std::string from = token.substr(i, 2);
    i += 2;
    Walk taken = NO_WALK;
    if (token[i++] == 'x') taken = walk_of(token[i++]);
    const Square to = parse_square(token.substr(i, 2));
    i += 2;
    Walk promotion = NO_WALK;
    if (i < token.size() && token[i] == '=') {
        promotion = walk_of(token[i + 1]);
        i += 2;
    }
    if (m.kind == MoveKind::Castling || m.to != to || (from != "**" && m.from != parse_square(from))) return false;
    // "ep" after the arrival square: an en passant capture, and only then.
    if ((token.compare(i, 2, "ep") == 0) != (m.kind == MoveKind::EnPassant)) return false;
    if (u.uncaptured != taken || (promotion != NO_WALK) != (m.kind == MoveKind::Promotion)) return false;
    if (promotion != NO_WALK && m.promotion != promotion) return false;
    if (retract(position, u).board[m.from].walk != (promotion != NO_WALK ? PAWN : unit)) return false;
    Square now = SQ_NONE, reborn = SQ_NONE;
    Piece removed{};
    for (size_t open = token.find('{', i); open != std::string::npos; open = token.find('{', open + 1)) {
        const std::string a = token.substr(open + 1, token.find('}', open) - open - 1);
        if (a.rfind("now ", 0) == 0) now = parse_square(a.substr(4));
        if (a.rfind("reborn ", 0) == 0) reborn = parse_square(a.substr(7));
        if (a.rfind("removed ", 0) == 0) removed = make_piece(a[8] == 'w' ? WHITE : BLACK, walk_of(a[9]));
    }
    if (now != SQ_NONE && (u.capturer_now != SQ_NONE ? u.capturer_now : m.to) != now) return false;
    if (u.unreborn != reborn) return false;
    // Circe Assassin: a unit taken on its own rebirth square removes its capturer ("Sh8xPf7
    // (Pf7,-Sf7)"), written {removed wN} too.
    if (u.capturer_lost) {
        const Piece capturer = retract(position, u).board[m.from];
        return removed.walk == unit && !removed.empty() && capturer.color == removed.color;
    }
    if (u.resurrected.walk != removed.walk) return false;
    return removed.empty() || u.resurrected.color == removed.color;
}

// Published Circe-family defensive retractors (data/retro/circe_retractors.jsonl, with their
// sources): the main line of each published solution, retraction after retraction, White's
// and Black's in turn from the diagram, is a line of legal retractions of rebirth's un-move
// generator under the problem's condition (each the only one written so), and the forward
// move at its end reaches the aim (mate or stalemate). rebirth does not solve these (8 and 17
// retractions, with repetition conventions): this checks the rules the solutions rest on.
TEST(Retractor, PublishedCirceFamilyLinesReplay) {
    const auto file = std::filesystem::path(REBIRTH_SOURCE_DIR) / "data" / "retro" / "circe_retractors.jsonl";
    int problems = 0;
    for (const auto& j : test::read_jsonl(file)) {
        const std::string id = j["id"];
        SCOPED_TRACE(id);
        const RuleSet rules = resolve_rules(parse_condition_words(j["condition"].get<std::string>(), id), id);
        rebirth::Setup s = parse_fen(j["fen"].get<std::string>(), id);
        int step = 0;
        for (const std::string& written : j["line"].get<std::vector<std::string>>()) {
            std::vector<UnMove> un;
            generate_unmoves(s, un, &rules);
            std::vector<UnMove> hits;
            for (size_t start = 0; hits.empty() && start <= written.size();) {
                const size_t bar = written.find('/', start);
                const std::string token =
                    written.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
                for (const UnMove& u : un)
                    if (retraction_is(s, u, token)) hits.push_back(u);
                if (bar == std::string::npos) break;
                start = bar + 1;
            }
            ASSERT_EQ(hits.size(), 1u) << "retraction " << step + 1 << " " << written << " in " << to_fen(s);
            s = retract(s, hits.front());
            ++step;
        }
        SetupRules setup_rules;
        setup_rules.rules = &rules;
        Position pos(s, setup_rules, id);
        MoveList list;
        generate_legal(pos, list);
        // The forward move: its two squares ("Kf3-e4", "Nd3xe1", "c7-c8=Q"), the promotion
        // when written.
        const std::string forward = j["forward"];
        std::vector<Square> squares;
        for (size_t i = 0; i + 1 < forward.size(); ++i)
            if (forward[i] >= 'a' && forward[i] <= 'h' && forward[i + 1] >= '1' && forward[i + 1] <= '8')
                squares.push_back(parse_square(forward.substr(i, 2)));
        ASSERT_EQ(squares.size(), 2u) << forward;
        const size_t eq = forward.find('=');
        const std::string letters = "QRBN";
        const std::array<Walk, 4> walks{QUEEN, ROOK, BISHOP, KNIGHT};
        const Walk promotion = eq == std::string::npos ? NO_WALK : walks.at(letters.find(forward[eq + 1]));
        const std::string stipulation = j["stipulation"];
        const bool self = stipulation.find("s#") != std::string::npos;
        const Goal aim = stipulation.find('=') != std::string::npos ? Goal::Stalemate : Goal::Mate;
        int reached = 0;
        for (const Move& m : list) {
            if (m.from != squares[0] || m.to != squares[1] || m.promotion != promotion) continue;
            UndoInfo u;
            pos.do_move(m, u);
            if (!self) {
                reached += goal_reached(pos, u, aim);
            } else {
                // s#1: Black then has moves, and every one mates White.
                MoveList replies;
                generate_legal(pos, replies);
                int mates = 0;
                for (const Move& r : replies) {
                    UndoInfo v;
                    pos.do_move(r, v);
                    mates += goal_reached(pos, v, Goal::Mate);
                    pos.undo_move(r, v);
                }
                reached += replies.size() > 0 && mates == replies.size();
            }
            pos.undo_move(m, u);
        }
        EXPECT_EQ(reached, 1) << "forward " << forward << " from " << to_fen(s);
        ++problems;
    }
    EXPECT_EQ(problems, 15);
}

// Whether janko text `text` (a retraction of rebirth's tree) is what the source writes as
// `written`: the same ("c7-c8=R"), or its start before the rebirth brackets ("Kh1xBg2" for
// "Kh1xBg2[+bBc8][-wRc8]"), or any unit ("~-h5") or any unit of one walk ("N~-g6") that went
// to that square without capturing.
bool written_as(const std::string& text, const std::string& written) {
    const size_t tilde = written.find('~');
    if (tilde == std::string::npos) return text.rfind(written, 0) == 0;
    const std::string arrival = written.substr(tilde + 1);  // "-h5"
    if (text.size() < arrival.size() || text.compare(text.size() - arrival.size(), arrival.size(), arrival) != 0)
        return false;
    return tilde == 0 ? true : text[0] == written[0];
}

// The published Circe-family retractors that rebirth solves (those of
// data/retro/circe_retractors.jsonl with `solved`): the source's key is rebirth's one key, and
// each line the source gives (Black's defence, White's answer, ..., the forward move written
// as the source writes it: "Rf4" a rook to f4) is a line of rebirth's tree; every defence
// rebirth finds against the key is one of the source's.
TEST(Retractor, PublishedCirceFamilyRetractorsSolved) {
    const auto file = std::filesystem::path(REBIRTH_SOURCE_DIR) / "data" / "retro" / "circe_retractors.jsonl";
    int solved = 0;
    for (const auto& j : test::read_jsonl(file)) {
        if (!j.contains("solved")) continue;
        const std::string id = j["id"];
        SCOPED_TRACE(id);
        const RuleSet rules = resolve_rules(parse_condition_words(j["condition"].get<std::string>(), id), id);
        RetractorSpec spec;
        ASSERT_TRUE(parse_retractor_stipulation(j["stipulation"], spec.retractions, spec.aim));
        const RetractorAnswer a = solve_retractor(parse_fen(j["fen"].get<std::string>(), id), spec, &rules, 2);
        EXPECT_EQ(a.verdict(), "unique") << retractor_text(a);
        ASSERT_EQ(a.keys.size(), 1u) << retractor_text(a);
        const RetractorStep& key = a.keys[0];
        EXPECT_TRUE(written_as(key.text, j["solved"]["key"])) << key.text;
        const auto variations = j["solved"]["variations"].get<std::vector<std::vector<std::string>>>();
        for (const RetractorStep& d : key.next) {
            const bool listed = std::any_of(variations.begin(), variations.end(),
                                            [&](const auto& v) { return written_as(d.text, v[0]); });
            EXPECT_TRUE(listed) << "defence " << d.text << " is not in the source";
        }
        for (const std::vector<std::string>& v : variations) {
            // Along the line: each step of the source among the steps below the one before.
            std::vector<const RetractorStep*> at{&key};
            for (size_t k = 0; k + 1 < v.size(); ++k) {
                std::vector<const RetractorStep*> next;
                for (const RetractorStep* step : at)
                    for (const RetractorStep& c : step->next)
                        if (written_as(c.text, v[k])) next.push_back(&c);
                EXPECT_FALSE(next.empty()) << v[k] << " (step " << k + 1 << ")";
                at = std::move(next);
            }
            // The forward move: its unit letter (none for a pawn) and its arrival square.
            const std::string& fw = v.back();
            bool reached = false;
            for (const RetractorStep* step : at)
                for (const std::string& f : step->forward) {
                    const bool pawn = !std::isupper(static_cast<unsigned char>(fw[0]));
                    const std::string target = pawn ? fw : fw.substr(1);
                    reached = reached || (f.find(target) != std::string::npos &&
                                          (pawn ? !std::isupper(static_cast<unsigned char>(f[2])) : f[2] == fw[0]));
                }
            EXPECT_TRUE(reached) << "forward " << fw << " after " << v[v.size() - 2];
        }
        ++solved;
    }
    EXPECT_EQ(solved, 3);
}

// After White retracts an en passant capture, Black's retraction is the double step it took,
// nothing else (the capture needs it). Thoma, Phénix No. 7259 (data/retro/circe_retractors.jsonl),
// Anti-Circe Cheylan -3 & s#1: the key -1.e5xd6 e.p. (the pawn reborn on d2) leaves Black only
// -1...d7-d5, and the source's line wins. Letting Black retract any other move there (a queen
// move, d6-d5) refuted the key, and the whole problem came out "none".
TEST(Retractor, EnPassantUncaptureLeavesOnlyTheDoubleStep) {
    const auto file = std::filesystem::path(REBIRTH_SOURCE_DIR) / "data" / "retro" / "circe_retractors.jsonl";
    for (const auto& j : test::read_jsonl(file)) {
        if (j["id"] != "thoma_px7259") continue;
        const RuleSet rules = resolve_rules(parse_condition_words(j["condition"].get<std::string>(), "7259"), "7259");
        const rebirth::Setup diagram = parse_fen(j["fen"].get<std::string>(), "7259");
        RetractorSpec spec;
        ASSERT_TRUE(parse_retractor_stipulation(j["stipulation"], spec.retractions, spec.aim));
        const auto line = j["line"].get<std::vector<std::string>>();
        std::vector<std::vector<UnMove>> key;
        for (const auto& choice : retractor_first_choices(diagram, spec, &rules))
            if (retraction_is(diagram, choice.front(), line[0])) key.push_back(choice);
        ASSERT_EQ(key.size(), 1u);
        const RetractorAnswer a = solve_retractor_choices(diagram, spec, &rules, key, 2);
        ASSERT_EQ(a.keys.size(), 1u) << retractor_text(a);
        const std::vector<std::vector<std::string>> lines = retractor_lines(a.keys[0]);
        ASSERT_EQ(lines.size(), 1u) << retractor_text(a);  // one defence: d7-d5
        std::vector<std::string> expected;
        rebirth::Setup s = diagram;
        for (const std::string& written : line) {
            std::vector<UnMove> un;
            generate_unmoves(s, un, &rules);
            for (const UnMove& u : un)
                if (retraction_is(s, u, written)) {
                    expected.push_back(janko_notation(s, u, &rules));
                    s = retract(s, u);
                    break;
                }
        }
        ASSERT_EQ(expected.size(), line.size());
        for (size_t k = 0; k < expected.size(); ++k)
            EXPECT_TRUE(lines[0][k].find(expected[k]) != std::string::npos) << lines[0][k] << " / " << expected[k];
        return;
    }
    FAIL() << "thoma_px7259 missing";
}

}  // namespace
}  // namespace rebirth
