// The corpus of published proof games in data/proofgames/ (README.md there): orthodox and
// Circe-family problems with the games their sources publish. For every line of index.jsonl:
//  - the .inp parses, and its stipulation, length and conditions are those of the index line;
//  - every published game, read move by move against the legal moves of the position (under
//    the problem's conditions, from the game array), is legal and reaches the diagram after
//    exactly the stipulated number of half-moves;
//  - where the line says test_solve, solving the problem gives exactly the published games
//    (solution_count_exact) or at least them.
// The expected games come from the sources (see the README), never from rebirth's output.

#include <gtest/gtest.h>

#include "test_util.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "rebirth/movegen.h"
#include "rebirth/notation.h"
#include "rebirth/popeye_input.h"
#include "rebirth/proof_split.h"
#include "rebirth/rules.h"
#include "rebirth/setup.h"
#include "rebirth/solve.h"

namespace rebirth {
namespace {

namespace fs = std::filesystem;

const fs::path kDir = fs::path(REBIRTH_SOURCE_DIR) / "data" / "proofgames";

struct CorpusEntry {
    std::string id, file, stipulation, condition;
    int plies = 0;
    bool exact = true;
    bool test_solve = false;
    std::vector<std::string> solutions;
};

std::vector<CorpusEntry> corpus() {
    std::vector<CorpusEntry> out;
    for (const auto& j : test::read_jsonl(kDir / "index.jsonl")) {
        CorpusEntry e;
        e.id = j.at("id");
        e.file = j.at("file");
        e.stipulation = j.at("stipulation");
        e.condition = j.at("condition");
        e.plies = j.at("plies");
        e.exact = j.at("solution_count_exact");
        e.test_solve = j.value("test_solve", false);
        for (const auto& s : j.at("solutions")) e.solutions.push_back(s.get<std::string>());
        out.push_back(e);
    }
    return out;
}

// The moves of a game in Popeye's notation, without move numbers, check signs and the
// closing "dia": "1.e2-e4 e7-e5   2.Qd1-h5 + ... dia" -> {"e2-e4", "e7-e5", "Qd1-h5", ...}.
std::vector<std::string> game_words(const std::string& game) {
    std::vector<std::string> words;
    std::istringstream in(game);
    for (std::string w; in >> w;) {
        size_t i = 0;
        while (i < w.size() && std::isdigit(static_cast<unsigned char>(w[i]))) ++i;
        if (i > 0 && i < w.size() && w[i] == '.') w = w.substr(i + 1);
        while (!w.empty() && w[0] == '.') w = w.substr(1);  // "1...e7-e5"
        if (w.empty() || w == "+" || w == "#" || w == "dia" || w == "ep.") continue;
        words.push_back(w);
    }
    return words;
}

std::string joined(const std::vector<std::string>& words) {
    std::string s;
    for (const std::string& w : words) s += (s.empty() ? "" : " ") + w;
    return s;
}

// Replays `game` from the game array under `rules`; returns "" when every move is legal and
// the game ends on `target` after `plies` half-moves, else what went wrong.
// `moves` (when given) gets the moves played.
std::string replay(const std::string& game, const RuleSet& rules, const Setup& target, int plies,
                   MoveLine* moves = nullptr) {
    SetupRules sr;
    sr.rules = &rules;
    Position pos(parse_fen(test::kGameArray), sr);
    int played = 0;
    for (const std::string& word : game_words(game)) {
        MoveList list;
        generate_legal(pos, list);
        bool found = false;
        for (const Move& m : list) {
            const std::string text = move_to_popeye(pos, m);
            if (text != word && text != word + " ep.") continue;
            UndoInfo u;
            pos.do_move(m, u);
            if (moves) moves->push_back(m);
            found = true;
            break;
        }
        if (!found) return "half-move " + std::to_string(played + 1) + " '" + word + "' is not legal";
        ++played;
    }
    if (played != plies) return std::to_string(played) + " half-moves instead of " + std::to_string(plies);
    const Setup reached = pos.to_setup();
    for (int s = 0; s < SQUARE_NB; ++s) {
        const Piece a = reached.board[s], b = target.board[s];
        if (a.walk != b.walk || (!a.empty() && a.color != b.color))
            return "the game ends off the diagram on " + square_name(Square(s)) + " (" + to_fen(reached) + ")";
    }
    if (pos.side_to_move() != (plies % 2 ? BLACK : WHITE)) return "wrong side to move at the end";
    return "";
}

Problem load(const CorpusEntry& e) {
    const auto problems = parse_popeye_file((kDir / e.file).string());
    EXPECT_EQ(problems.size(), 1u) << e.id;
    return problems.at(0);
}

TEST(ProofGameCorpus, IndexMatchesFiles) {
    const auto entries = corpus();
    int orthodox = 0, circe = 0;
    std::set<std::string> ids, files;
    for (const CorpusEntry& e : entries) {
        EXPECT_TRUE(ids.insert(e.id).second) << "duplicate id " << e.id;
        EXPECT_TRUE(files.insert(e.file).second) << "duplicate file " << e.file;
        EXPECT_FALSE(e.solutions.empty()) << e.id;
        const Problem p = load(e);
        EXPECT_EQ(p.stipulation.play, Stipulation::Play::ProofGame) << e.id;
        EXPECT_EQ(p.stipulation.text, e.stipulation) << e.id;
        EXPECT_EQ(p.stipulation.half_moves, e.plies) << e.id;
        EXPECT_EQ(p.conditions.empty(), e.condition == "none (orthodox)") << e.id;
        (p.conditions.empty() ? orthodox : circe)++;
    }
    // Every .inp of the folder is in the index.
    for (const auto& f : fs::directory_iterator(kDir)) {
        if (f.path().extension() == ".inp") {
            EXPECT_TRUE(files.count(f.path().filename().string())) << f.path();
        }
    }
    // Issue 12: at least 30 published proof games, at least 10 of them under Circe-family conditions.
    EXPECT_GE(orthodox + circe, 30);
    EXPECT_GE(circe, 10);
    std::printf("%d problems: %d orthodox, %d under conditions\n", orthodox + circe, orthodox, circe);
}

TEST(ProofGameCorpus, PublishedGamesReachTheDiagram) {
    int games = 0;
    for (const CorpusEntry& e : corpus()) {
        const Problem p = load(e);
        const RuleSet rules = resolve_rules(p.conditions, e.file);
        for (const std::string& game : e.solutions) {
            EXPECT_EQ(replay(game, rules, p.setup, e.plies), "") << e.id << ": " << game;
            ++games;
        }
    }
    std::printf("%d published games replayed\n", games);
}

// The search keeps every published game (ProofTwinSolver::keeps_line: restricted to the
// game's moves, with every bound and move filter of the full search), also of the problems
// too long to solve in the suite: no bound or filter would make the full search miss them.
TEST(ProofGameCorpus, SearchKeepsEveryPublishedGame) {
    int games = 0;
    for (const CorpusEntry& e : corpus()) {
        const Problem p = load(e);
        const RuleSet rules = resolve_rules(p.conditions, e.file);
        const ProofTwinSolver solver(p, 0);
        for (const std::string& game : e.solutions) {
            MoveLine moves;
            ASSERT_EQ(replay(game, rules, p.setup, e.plies, &moves), "") << e.id;
            EXPECT_TRUE(solver.keeps_line(0, moves)) << e.id << ": " << game;
            ++games;
        }
    }
    std::printf("%d published games kept\n", games);
    EXPECT_GE(games, 43);
}

TEST(ProofGameCorpus, SolvingGivesThePublishedGames) {
    int solved = 0;
    for (const CorpusEntry& e : corpus()) {
        if (!e.test_solve) continue;
        const Problem p = load(e);
        const SolveReport report = solve_problem_report(p, 1, SolveLimits{});
        EXPECT_FALSE(report.timed_out) << e.id;
        std::set<std::string> found, published;
        for (const std::string& line : test::split_lines(report.text))
            if (line.size() > 4 && line.substr(line.size() - 4) == " dia") found.insert(joined(game_words(line)));
        for (const std::string& game : e.solutions) published.insert(joined(game_words(game)));
        if (e.exact) {
            EXPECT_EQ(found, published) << e.id;
        } else {
            for (const std::string& g : published) EXPECT_TRUE(found.count(g)) << e.id << ": missing " << g;
        }
        ++solved;
    }
    std::printf("%d problems solved\n", solved);
    EXPECT_GE(solved, 20);
}

}  // namespace
}  // namespace rebirth
