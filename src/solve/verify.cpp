#include "rebirth/verify.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <optional>
#include <sstream>

#include "rebirth/error.h"
#include "rebirth/movegen.h"
#include "rebirth/notation.h"
#include "rebirth/popeye_input.h"
#include "rebirth/setup.h"
#include "rebirth/walk.h"
#include "solve/solve_internal.h"

namespace rebirth {

namespace {

// At most this many readings of one claimed game (a move written without the rebirth bracket
// that decides between two rebirths reads both ways).
constexpr size_t kMaxReadings = 64;

// A move as the claim may write it and as it is compared: the check and mate marks and
// annotation marks dropped; without its brackets when `brackets` is false.
std::string comparable(std::string_view text, bool brackets) {
    std::string out;
    int depth = 0;
    for (char c : text) {
        if (c == '[') ++depth;
        if (depth == 0 || brackets) out += c;
        if (c == ']' && depth > 0) --depth;
    }
    while (!out.empty() &&
           (out.back() == '+' || out.back() == '#' || out.back() == '!' || out.back() == '?' || out.back() == ' '))
        out.pop_back();
    return out;
}

// A claimed move as the usual styles write it: Popeye's long notation ("Sg1-f3", "e5*d6 ep.",
// "e7-e8=Q", "0-0"), short algebraic ("Nf3", "exd5", "Rae1", "e8=Q+", "O-O"), WinChloe's
// ("Cf3", "Fxc4 (Cb1)", "e:d5"): the unit's letter in the problem's language (none for a
// pawn; in English also SAN's N for the knight), what the departure square says (file, rank,
// both or nothing), whether it captures ('x', ':' or '*'), the arrival square and the
// promotion's letter. A rebirth square in parentheses is kept for the comparison.
struct ClaimMove {
    int castle = 0;  // 1: O-O, 2: O-O-O
    Walk unit = PAWN;
    int from_file = -1, from_rank = -1;
    bool capture = false;
    Square to = SQ_NONE;
    Walk promotion = NO_WALK;
    std::string rebirth;  // a square named in parentheses ("(Cb1)": "b1"), or empty
};

bool is_file(char c) { return c >= 'a' && c <= 'h'; }
bool is_rank(char c) { return c >= '1' && c <= '8'; }

// Whether a token has the two squares of Popeye's long notation (its Mars and Anti-Mars moves
// name three: "Sb8-g1-f3"), which read_claim does not read.
bool popeye_like(std::string_view token) {
    int squares = 0;
    for (size_t i = 0; i + 1 < token.size() && token[i] != '['; ++i)
        if (is_file(token[i]) && is_rank(token[i + 1])) ++squares;
    return squares >= 2;
}

Walk letter_walk(char c, Language lang) {
    if (lang == Language::English && c == 'N') return KNIGHT;
    return walk_from_code(std::string_view(&c, 1), lang);
}

std::optional<ClaimMove> read_claim(std::string_view token, Language lang) {
    ClaimMove c;
    std::string t;
    // Brackets and parentheses apart (the last square in parentheses is a rebirth square).
    int depth = 0;
    std::string inside;
    for (char ch : token) {
        if (ch == '[' || ch == '(') {
            ++depth;
            inside.clear();
        } else if ((ch == ']' || ch == ')') && depth > 0) {
            --depth;
            for (size_t i = 0; i + 1 < inside.size(); ++i)
                if (is_file(inside[i]) && is_rank(inside[i + 1])) c.rebirth = inside.substr(i, 2);
        } else if (depth > 0) {
            inside += ch;
        } else {
            t += ch;
        }
    }
    for (const char* suffix : {"e.p.", "ep."})
        if (t.ends_with(suffix)) t.erase(t.size() - std::string_view(suffix).size());
    while (!t.empty() && (t.back() == '+' || t.back() == '#' || t.back() == '!' || t.back() == '?' || t.back() == ' '))
        t.pop_back();
    if (t == "0-0" || t == "O-O") c.castle = 1;
    if (t == "0-0-0" || t == "O-O-O") c.castle = 2;
    if (c.castle) return c;
    size_t i = 0;
    if (i < t.size() && std::isupper(static_cast<unsigned char>(t[i]))) {
        c.unit = letter_walk(t[i++], lang);
        if (c.unit == NO_WALK) return std::nullopt;
    }
    // The arrival square: the last square of the token.
    size_t to = std::string::npos;
    for (size_t k = i; k + 1 < t.size(); ++k)
        if (is_file(t[k]) && is_rank(t[k + 1])) to = k;
    if (to == std::string::npos) return std::nullopt;
    c.to = make_square(t[to] - 'a', t[to + 1] - '1');
    for (size_t k = i; k < to; ++k) {
        const char ch = t[k];
        if (is_file(ch) && c.from_file < 0 && (k + 1 >= to || !is_file(t[k + 1]) || is_rank(t[k + 1])))
            c.from_file = ch - 'a';
        else if (is_rank(ch) && c.from_rank < 0)
            c.from_rank = ch - '1';
        else if (ch == 'x' || ch == ':' || ch == '*')
            c.capture = true;
        else if (ch != '-')
            return std::nullopt;
    }
    std::string_view rest = std::string_view(t).substr(to + 2);
    if (rest.starts_with("=")) rest.remove_prefix(1);
    if (!rest.empty()) {
        if (rest.size() != 1 || !std::isupper(static_cast<unsigned char>(rest[0]))) return std::nullopt;
        c.promotion = letter_walk(rest[0], lang);
        if (c.promotion == NO_WALK) return std::nullopt;
    }
    return c;
}

// Whether legal move m of pos is claimed move c (its Popeye text `popeye` gives the rebirths).
bool claim_matches(const Position& pos, const Move& m, const ClaimMove& c, const std::string& popeye) {
    if (c.castle) return m.kind == MoveKind::Castling && (file_of(m.to) == 6) == (c.castle == 1);
    if (m.kind == MoveKind::Castling || m.to != c.to) return false;
    const Walk unit = m.kind == MoveKind::Promotion ? PAWN : pos.piece_on(m.from).walk;
    if (unit != c.unit) return false;
    if ((c.from_file >= 0 && file_of(m.from) != c.from_file) || (c.from_rank >= 0 && rank_of(m.from) != c.from_rank))
        return false;
    const Piece target = pos.piece_on(m.to);
    const bool captures = m.kind == MoveKind::EnPassant || (!target.empty() && target.color != pos.side_to_move());
    if (captures != c.capture) return false;
    if ((m.kind == MoveKind::Promotion ? m.promotion : NO_WALK) != c.promotion) return false;
    if (!c.rebirth.empty()) {
        const size_t bracket = popeye.find('[');
        if (bracket == std::string::npos || popeye.find(c.rebirth, bracket) == std::string::npos) return false;
    }
    return true;
}

// One claimed game: its line in the claimed text, whether Black plays first ("1..."), and its
// move tokens.
struct ClaimedGame {
    std::string text;  // the line as written, blanks at its ends dropped
    int line = 0;
    bool black_first = false;
    std::vector<std::string> tokens;
};

// The games of Popeye's solution text: each line whose first word is "1." or "1..." followed
// by a move (or is "1.MOVE"); move numbers, "dia", "a=>b" and lone marks are not moves.
std::vector<ClaimedGame> claimed_games(std::string_view text, int first_line, const std::string& file) {
    std::vector<ClaimedGame> out;
    std::istringstream in{std::string(text)};
    int line_no = first_line;
    for (std::string line; std::getline(in, line); ++line_no) {
        std::istringstream words(line);
        std::vector<std::string> raw;
        for (std::string w; words >> w;) raw.push_back(w);
        if (raw.empty() || !raw.front().starts_with("1.")) continue;
        ClaimedGame g;
        g.line = line_no;
        g.text = line.substr(line.find_first_not_of(" \t"));
        g.text.erase(g.text.find_last_not_of(" \t\r") + 1);
        g.black_first = raw.front().starts_with("1...");
        for (std::string w : raw) {
            // A rebirth written apart ("Fxc4 (Cb1)", "Sg8-f6 [+bPg1=R]") belongs to the move before.
            if ((w.starts_with("(") || w.starts_with("[")) && !g.tokens.empty()) {
                g.tokens.back() += w;
                continue;
            }
            // A move number in front of a move, or alone: "12.", "12...", "12.Sg1-f3".
            size_t i = 0;
            while (i < w.size() && std::isdigit(static_cast<unsigned char>(w[i]))) ++i;
            if (i > 0 && i < w.size() && w[i] == '.') {
                while (i < w.size() && w[i] == '.') ++i;
                w = w.substr(i);
            }
            if (w.empty() || w == "dia" || w == "a=>b" || w == "+" || w == "#" || w == "=" || w == "!" || w == "?")
                continue;
            if (!read_claim(w, Language::English) && !read_claim(w, Language::French) &&
                !read_claim(w, Language::German) && !popeye_like(w))
                throw InputError(file, line_no, w, "a claimed move that does not parse:");
            g.tokens.push_back(w);
        }
        out.push_back(std::move(g));
    }
    return out;
}

// The ways of reading g from `start` (its side to move set by the claim), each a list of
// legal moves; when none, `why` says where the claim leaves the legal moves.
std::vector<std::vector<Move>> readings(const Position& start, const ClaimedGame& g, Language lang, std::string& why) {
    std::vector<std::pair<Position, std::vector<Move>>> live{{start, {}}};
    for (size_t k = 0; k < g.tokens.size(); ++k) {
        const std::string& token = g.tokens[k];
        // With brackets, Popeye's text exactly (marks apart); else Popeye's text without its
        // brackets, or the move read in any style.
        const bool brackets = token.find('[') != std::string::npos;
        const std::string want = comparable(token, true);
        const std::optional<ClaimMove> claim = read_claim(token, lang);
        std::vector<std::pair<Position, std::vector<Move>>> next;
        for (auto& [pos, moves] : live) {
            MoveList list;
            generate_legal(pos, list);
            for (const Move& m : list) {
                const std::string popeye = move_to_popeye(pos, m, false, lang);
                const bool same =
                    brackets ? comparable(popeye, true) == want
                             : comparable(popeye, false) == want || (claim && claim_matches(pos, m, *claim, popeye));
                if (!same) continue;
                if (next.size() >= kMaxReadings) break;
                Position after = pos;
                UndoInfo u;
                after.do_move(m, u);
                std::vector<Move> line = moves;
                line.push_back(m);
                next.emplace_back(std::move(after), std::move(line));
            }
        }
        if (next.empty()) {
            const int number = int(k + (g.black_first ? 1 : 0)) / 2 + 1;
            const bool white = (k + (g.black_first ? 1 : 0)) % 2 == 0;
            why = std::to_string(number) + (white ? "." : "...") + token + " is not a legal move there";
            return {};
        }
        live = std::move(next);
    }
    std::vector<std::vector<Move>> out;
    for (auto& [pos, moves] : live) out.push_back(std::move(moves));
    return out;
}

// A game in Popeye's notation from `start`: "1.e2-e4 e7-e5   2.Sg1-f3" (Black first: "1...").
std::string game_text(Position pos, const std::vector<Move>& moves, Language lang) {
    std::string out;
    int number = 1;
    for (size_t i = 0; i < moves.size(); ++i) {
        const bool white = pos.side_to_move() == WHITE;
        if (white) {
            if (i > 0) out += "   ";
            out += std::to_string(number) + ".";
        } else if (i == 0) {
            out += std::to_string(number) + "...";
        } else {
            out += " ";
        }
        out += move_to_popeye(pos, moves[i], false, lang);
        UndoInfo u;
        pos.do_move(moves[i], u);
        if (!white) ++number;
    }
    return out;
}

// The FEN placement field of pos's board.
std::string placement(const Position& pos) {
    const std::string fen = to_fen(pos.to_setup());
    return fen.substr(0, fen.find(' '));
}

// The start position of play with `first` to move.
Position start_with(const Position& start, Color first, const RuleSet* rules, const Problem& tw) {
    Setup s = start.to_setup();
    s.side_to_move = first;
    SetupRules setup_rules;
    setup_rules.require_white_king = !tw.options.no_white_king;
    setup_rules.require_black_king = !tw.options.no_black_king;
    setup_rules.rules = rules;
    Position pos;
    pos.load(s, setup_rules, tw.where.file);
    return pos;
}

}  // namespace

VerifyResult verify_claimed(const Problem& p, std::string_view claimed, int first_line, int threads,
                            const SolveLimits& limits) {
    VerifyResult r;
    const std::vector<ClaimedGame> games = claimed_games(claimed, first_line, p.where.file);
    r.claimed = int(games.size());
    auto unverified = [&](std::string why) {
        r.verdict = "unverified";
        r.why = std::move(why);
        return r;
    };
    if (!is_proof(p))
        return unverified("verifying claimed solutions of " + p.stipulation.text +
                          " is not implemented yet (proof games only: dia, a=>b)");
    if (p.stipulation.series || p.stipulation.intro)
        return unverified("verifying claimed solutions of " + p.stipulation.text +
                          " is not implemented yet (proof games of both sides only)");
    if (!p.twins.empty()) return unverified("verifying the claims of twins is not implemented yet");
    if (p.options.duplex) return unverified("verifying the claims of a duplex is not implemented yet");
    const SolveReport report = solve_problem_report(p, threads, limits);
    if (!report.supported) return unverified("rebirth does not solve " + p.stipulation.text + " here");
    if (report.timed_out) return unverified("the time limit stopped the search");
    if (report.partial) return unverified("MaxSolutions or StopOnShortSolutions cut the search");
    r.found = int(report.proof_games.size());
    const std::unique_ptr<TwinSetup> setup = load_twin(p);
    const RuleSet* rules = setup->rules.orthodox() ? nullptr : &setup->rules;
    std::vector<bool> claimed_found(report.proof_games.size(), false);
    for (size_t gi = 0; gi < games.size(); ++gi) {
        const ClaimedGame& g = games[gi];
        r.claimed_lines.push_back(g.text);
        const Position start = start_with(setup->pos, g.black_first ? BLACK : WHITE, rules, p);
        // In the problem's language, else in another (a claim from another program).
        std::string why;
        std::vector<std::vector<Move>> read = readings(start, g, p.language, why);
        for (Language other : {Language::English, Language::French, Language::German}) {
            std::string ignored;
            if (read.empty() && other != p.language) read = readings(start, g, other, ignored);
        }
        bool solution = false;
        for (const std::vector<Move>& moves : read)
            for (size_t k = 0; k < report.proof_games.size(); ++k)
                if (report.proof_games[k].first == start.side_to_move() && report.proof_games[k].moves == moves) {
                    claimed_found[k] = true;
                    solution = true;
                }
        if (!solution)
            r.missing.push_back("game " + std::to_string(gi + 1) + " (line " + std::to_string(g.line) + "): " +
                                (why.empty() ? "its " + std::to_string(g.tokens.size()) +
                                                   " half-moves do not reach the diagram as stipulated"
                                             : why));
    }
    for (size_t k = 0; k < report.proof_games.size(); ++k) {
        const ProofGameSolution& s = report.proof_games[k];
        Position pos = start_with(setup->pos, s.first, rules, p);
        const std::string text = game_text(pos, s.moves, p.language);
        r.games.push_back(text);
        if (!claimed_found[k]) r.cooks.push_back(text);
        std::vector<std::string> steps{placement(pos)};
        for (const Move& m : s.moves) {
            UndoInfo u;
            pos.do_move(m, u);
            steps.push_back(placement(pos));
        }
        r.boards.push_back(std::move(steps));
    }
    r.verdict = !r.missing.empty() ? "missing" : !r.cooks.empty() ? "cooked" : "sound";
    return r;
}

}  // namespace rebirth
