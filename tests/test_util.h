#pragma once

// Helpers shared by the test suites.

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "rebirth/legality.h"
#include "rebirth/movegen.h"
#include "rebirth/notation.h"
#include "rebirth/position.h"
#include "rebirth/setup.h"
#include "rebirth/types.h"
#include "rebirth/walk.h"

namespace rebirth::test {

// A diagram from unit words "wKe1", "bSc2", "wGd4" (colour w/b, an English Popeye code: S =
// knight, G = grasshopper, N = nightrider, then the square); no castling rights, no en
// passant. An unknown code or square throws std::invalid_argument.
inline Setup diagram(std::initializer_list<const char*> units, Color side = WHITE) {
    Setup s;
    for (const char* u : units) {
        const std::string w(u);
        const Walk walk = w.size() == 4 ? walk_from_code(w.substr(1, 1), Language::English) : NO_WALK;
        const Square sq = w.size() == 4 ? parse_square(w.substr(2)) : SQ_NONE;
        if (walk == NO_WALK || sq == SQ_NONE || (w[0] != 'w' && w[0] != 'b'))
            throw std::invalid_argument("bad unit word " + w);
        s.board[sq] = make_piece(w[0] == 'w' ? WHITE : BLACK, walk);
    }
    s.side_to_move = side;
    return s;
}

// The game array, the start of every proof game.
inline constexpr const char* kGameArray = kGameArrayFen;

// The game array under `rules`, White to move with every castling right (the position points
// at the rules: keep them alive).
inline Position game_array_under(const RuleSet& rules) {
    SetupRules setup_rules;
    setup_rules.rules = &rules;
    return Position(parse_fen(kGameArray), setup_rules);
}

// The promotions of `list` (legal moves in `pos`) and the moves of the pawns nearest their
// last rank: what games biased to promotions choose from.
struct PawnRace {
    std::vector<Move> promotions, ahead;
};
inline PawnRace pawn_race(const Position& pos, const MoveList& list) {
    PawnRace race;
    int best = -1;
    for (const Move& m : list) {
        if (pos.piece_on(m.from).walk != PAWN) continue;
        if (m.kind == MoveKind::Promotion) race.promotions.push_back(m);
        const int r = relative_rank(pos.piece_on(m.from).color, rank_of(m.from));
        if (r > best) {
            best = r;
            race.ahead.clear();
        }
        if (r == best) race.ahead.push_back(m);
    }
    return race;
}

// The board of a FEN (a proof game's target).
inline std::array<Piece, SQUARE_NB> board_of(const char* fen) { return parse_fen(fen).board; }

// The positions of a seeded random game of up to `plies` half-moves from `start` (start
// first; shorter when a side has no move). With `capture_one_in` above 1 a capture (or en
// passant) is played only one time in that many where a quiet move exists.
inline std::vector<Position> random_line(const Position& start, int plies, std::mt19937& rng, int capture_one_in = 1) {
    Position pos = start;
    std::vector<Position> line{pos};
    for (int ply = 0; ply < plies; ++ply) {
        MoveList list, quiet;
        generate_legal(pos, list);
        if (list.empty()) break;
        for (const Move& m : list)
            if (pos.empty(m.to) && m.kind != MoveKind::EnPassant) quiet.push(m);
        const bool any =
            capture_one_in <= 1 || quiet.empty() || std::uniform_int_distribution<int>(1, capture_one_in)(rng) == 1;
        const MoveList& from = any ? list : quiet;
        UndoInfo u;
        pos.do_move(from[std::uniform_int_distribution<int>(0, from.size() - 1)(rng)], u);
        line.push_back(pos);
    }
    return line;
}

// The whole content of a file ("" when it cannot be read).
inline std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// The lines of a text, without their line ends.
inline std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
    return lines;
}

// The JSON objects of a JSON Lines file, one per non-empty line; a line that does not parse
// throws std::runtime_error naming the file and line (the reference files are never edited).
inline std::vector<nlohmann::json> read_jsonl(const std::filesystem::path& path) {
    std::vector<nlohmann::json> out;
    int number = 0;
    for (const std::string& line : split_lines(read_text(path))) {
        ++number;
        if (line.empty()) continue;
        try {
            out.push_back(nlohmann::json::parse(line));
        } catch (const nlohmann::json::exception& e) {
            throw std::runtime_error(path.string() + ":" + std::to_string(number) + ": " + e.what());
        }
    }
    return out;
}

// The marks of a legality label of ../shared/reference/retro/legality.jsonl (its
// `constraints`: squares of units frozen or promoted).
inline LegalityMarks label_marks(const nlohmann::json& label) {
    LegalityMarks marks;
    for (const auto& square : label["constraints"]["frozen"])
        marks.frozen |= square_bb(parse_square(square.get<std::string>()));
    for (const auto& square : label["constraints"]["promoted"])
        marks.promoted |= square_bb(parse_square(square.get<std::string>()));
    return marks;
}

// The legal moves of pos in Popeye notation (no check marks), sorted.
inline std::vector<std::string> legal_moves(const Position& pos) {
    MoveList list;
    generate_legal(pos, list);
    std::vector<std::string> out;
    for (const Move& m : list) out.push_back(move_to_popeye(pos, m));
    std::sort(out.begin(), out.end());
    return out;
}

// The sorted copy of an expected move list.
inline std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}

// A new empty directory under the system's temporary directory.
inline std::filesystem::path fresh_dir(const std::string& name) {
    std::filesystem::path dir = std::filesystem::temp_directory_path() / ("rebirth-test-" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

}  // namespace rebirth::test
