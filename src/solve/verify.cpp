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
#include "rebirth/popeye_output.h"
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

// `line` without the blanks at its ends.
std::string trimmed(const std::string& line) {
    const size_t first = line.find_first_not_of(" \t\r");
    return first == std::string::npos ? std::string() : line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
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

// Whether `token` reads as a move in one of the styles read_claim reads (in any of Popeye's
// languages) or in Popeye's long notation.
bool reads_as_move(std::string_view token) {
    return read_claim(token, Language::English) || read_claim(token, Language::French) ||
           read_claim(token, Language::German) || popeye_like(token);
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

// One claimed solution: its line in the claimed text, the twin it belongs to, whether it
// opens with "1...", and its move tokens (a key of battle play: that move alone).
struct ClaimedGame {
    std::string text;  // the line as written, blanks at its ends dropped
    int line = 0;
    int twin = 0;  // a) = 0, b) = 1, ...: the last twin label before or on the line
    bool black_first = false;
    std::vector<std::string> tokens;
};

// Whether `word` is a twin label: "a)", "b)", "+c)" (Popeye's continued twin).
bool twin_label(std::string_view word, int& twin) {
    if (word.starts_with("+")) word.remove_prefix(1);
    if (word.size() != 2 || word[1] != ')' || word[0] < 'a' || word[0] > 'z') return false;
    twin = word[0] - 'a';
    return true;
}

// The claimed solutions of a solution text, as Popeye prints them: each line whose first word
// is "1." or "1..." followed by a move (or is "1.MOVE"), after a twin label ("a)", on the line
// or on a line of its own before it) when there is one. Move numbers, "dia", "a=>b" and lone
// marks are not moves (battle play's claims: claimed_trees).
std::vector<ClaimedGame> claimed_games(std::string_view text, int first_line, const std::string& file) {
    std::vector<ClaimedGame> out;
    std::istringstream in{std::string(text)};
    int line_no = first_line, twin = 0;
    for (std::string line; std::getline(in, line); ++line_no) {
        std::istringstream words(line);
        std::vector<std::string> raw;
        for (std::string w; words >> w;) raw.push_back(w);
        if (!raw.empty() && twin_label(raw.front(), twin)) raw.erase(raw.begin());
        if (raw.empty() || !raw.front().starts_with("1.")) continue;
        // Prose, not a claim ("1. ehr. Erw." in the header of Popeye's output): the first move
        // names no square or castling (a move that does not parse names one: bad input).
        {
            std::string first = raw.front().substr(std::min(raw.front().size(), raw.front().find_first_not_of("1.")));
            if (first.empty() && raw.size() > 1) first = raw[1];
            if (first.find_first_of("0123456789") == std::string::npos && first.find("O-O") == std::string::npos)
                continue;
        }
        ClaimedGame g;
        g.line = line_no;
        g.twin = twin;
        g.text = trimmed(line);
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
            if (!reads_as_move(w)) throw InputError(file, line_no, w, "a claimed move that does not parse:");
            g.tokens.push_back(w);
        }
        out.push_back(std::move(g));
    }
    return out;
}

// Whether claimed token `token` is legal move m of pos: with brackets, Popeye's text exactly
// (marks apart); else Popeye's text without its brackets, or the move read in any style.
bool token_is_move(const Position& pos, const Move& m, const std::string& token, Language lang) {
    const bool brackets = token.find('[') != std::string::npos;
    const std::string popeye = move_to_popeye(pos, m, false, lang);
    if (brackets) return comparable(popeye, true) == comparable(token, true);
    if (comparable(popeye, false) == comparable(token, false)) return true;
    const std::optional<ClaimMove> claim = read_claim(token, lang);
    return claim && claim_matches(pos, m, *claim, popeye);
}

// token_is_move in `lang`, else in another of Popeye's languages (a claim from another program).
bool token_is_move_any(const Position& pos, const Move& m, const std::string& token, Language lang) {
    for (Language l : {lang, Language::English, Language::French, Language::German})
        if (token_is_move(pos, m, token, l)) return true;
    return false;
}

// Whether the claimed tokens are the moves of `moves` played from `start` (null moves, the
// passes of series play, are not written).
bool claim_is_line(Position pos, const std::vector<Move>& moves, const std::vector<std::string>& tokens,
                   Language lang) {
    size_t k = 0;
    for (const Move& m : moves) {
        if (m.is_null()) {
            pos.set_side_to_move_for_analysis(~pos.side_to_move());
            continue;
        }
        if (k >= tokens.size() || !token_is_move(pos, m, tokens[k], lang)) return false;
        ++k;
        UndoInfo u;
        pos.do_move(m, u);
    }
    return k == tokens.size();
}

// The ways of reading g from `start` (its side to move set by the claim), each a list of
// legal moves; when none, `why` says where the claim leaves the legal moves.
std::vector<std::vector<Move>> readings(const Position& start, const ClaimedGame& g, Language lang, std::string& why) {
    std::vector<std::pair<Position, std::vector<Move>>> live{{start, {}}};
    for (size_t k = 0; k < g.tokens.size(); ++k) {
        const std::string& token = g.tokens[k];
        std::vector<std::pair<Position, std::vector<Move>>> next;
        for (auto& [pos, moves] : live) {
            MoveList list;
            generate_legal(pos, list);
            for (const Move& m : list) {
                if (!token_is_move(pos, m, token, lang)) continue;
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

// A game in Popeye's notation from `start`: "1.e2-e4 e7-e5   2.Sg1-f3" (Black first: "1..."); a null
// move is a pass of series play ("1.e2-e3   2.Sg1-f3").
std::string game_text(Position pos, const std::vector<Move>& moves, Language lang) {
    std::string out;
    int number = 1;
    for (size_t i = 0; i < moves.size(); ++i) {
        if (moves[i].is_null()) {
            // A pass (series play): the next move of the series side has the next number.
            if (pos.side_to_move() == BLACK) ++number;
            pos.set_side_to_move_for_analysis(~pos.side_to_move());
            continue;
        }
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

// A move of a claimed battle-play tree: its token and line, and the moves claimed below it
// (a key's defences, a defence's continuations, ...).
struct ClaimNode {
    std::string token;
    int line = 0;
    std::string text;  // a key's line as written, blanks at its ends dropped
    std::vector<ClaimNode> children;
    std::vector<ClaimNode> threats;  // the attacker's threats claimed after this move of the attacker
};

// The claimed keys of battle play with the variations claimed below them, per twin: every
// numbered move ("1.Sb6!", "1...Kd4", "2.Qe5#", "1...Kd4 2.Qe5#" on one line, or one move a
// line as Popeye prints them) goes below the last move one half-move before it ("k." is
// half-move 2k-2, "k..." 2k-1; a move without a number follows the one before it on its
// line); an attacker's move right below the key or a continuation is a threat of it ("1.Sb6!
// threat: 2.Qc5#", "(2.Qc5#)"; the threat's own play is not read). Set play (a defence before
// any key), tries (a key marked "?") with their refutations, and words that are no moves
// ("threat:", "but", marks, prose) are left out; a line's first move "1.X" that names a square
// and does not parse is bad input (InputError naming `file`, the line and the token).
std::vector<std::pair<int, ClaimNode>> claimed_trees(std::string_view text, int first_line, const std::string& file) {
    std::vector<std::pair<int, ClaimNode>> roots;
    std::vector<ClaimNode*> path;  // path[d]: the claimed move of half-move d being filled
    bool in_try = false;
    int twin = 0, line_no = first_line;
    std::istringstream in{std::string(text)};
    for (std::string line; std::getline(in, line); ++line_no) {
        std::istringstream words(line);
        std::vector<std::string> raw;
        for (std::string w; words >> w;) raw.push_back(w);
        if (!raw.empty() && twin_label(raw.front(), twin)) {
            raw.erase(raw.begin());
            path.clear();
            in_try = false;
        }
        int last = -1;  // half-move of the line's last move
        for (size_t k = 0; k < raw.size(); ++k) {
            std::string w = raw[k];
            while (!w.empty() && (w.front() == '(' || w.front() == ';')) w.erase(0, 1);
            while (!w.empty() && (w.back() == ')' || w.back() == ',' || w.back() == ';')) w.pop_back();
            size_t i = 0;
            while (i < w.size() && std::isdigit(static_cast<unsigned char>(w[i]))) ++i;
            int depth = -1;
            if (i > 0 && i < w.size() && w[i] == '.') {
                const int number = std::stoi(w.substr(0, i));
                const bool dots = w.compare(i, 3, "...") == 0;
                depth = 2 * (number - 1) + (dots ? 1 : 0);
                w = w.substr(i + (dots ? 3 : 1));
                if (w.empty() && k + 1 < raw.size()) w = raw[++k];
            } else if (last >= 0 && (read_claim(w, Language::English) || popeye_like(w))) {
                depth = last + 1;
            }
            if (depth < 0 || w.empty()) continue;
            if (!reads_as_move(w)) {
                // A line's first move "1.X" naming a square that is no move is bad input; other
                // words are prose ("1. ehr. Erw." in the header of Popeye's output).
                if (depth == 0 && k <= 1 && w.find_first_of("0123456789") != std::string::npos)
                    throw InputError(file, line_no, w, "a claimed move that does not parse:");
                continue;
            }
            last = depth;
            // The marks after the move, on it or as the next words.
            bool doubtful = w.find('?') != std::string::npos;
            for (size_t m = k + 1; m < raw.size() && raw[m].find_first_not_of("+#!?") == std::string::npos; ++m)
                if (raw[m].find('?') != std::string::npos) doubtful = true;
            if (depth == 0) {
                in_try = doubtful;
                path.clear();
                if (in_try) continue;
                roots.push_back({twin, ClaimNode{w, line_no, trimmed(line), {}, {}}});
                path.push_back(&roots.back().second);
                continue;
            }
            if (in_try) continue;  // a try's play
            // A threat: an attacker's move right below the attacker's move before it.
            if (depth % 2 == 0 && int(path.size()) == depth - 1) {
                path.back()->threats.push_back(ClaimNode{w, line_no, "", {}, {}});
                continue;
            }
            if (int(path.size()) < depth) continue;  // set play, a threat's play
            path.resize(size_t(depth));
            ClaimNode& parent = *path.back();
            parent.children.push_back(ClaimNode{w, line_no, "", {}, {}});
            path.push_back(&parent.children.back());
        }
    }
    return roots;
}

// The defences and continuations claimed below `claim` compared with those found below
// `found` (pos: the position after found's move): a claimed threat that is not one of the
// threats found, a claimed defence that is no legal move, or a claimed continuation of a
// shown defence that is not one of its continuations, is missing; a shown defence with more than one continuation is a
// dual. A claimed defence that is legal but not shown (answered by the threat, or short) is not compared. `before`: the
// moves so far ("1.Sb6 1...Kd4").
void compare_play(const ClaimNode& claim, const PlayNode& found, const Position& pos, Language lang,
                  const std::string& before, int half_move, VerifyResult& r) {
    const auto number = battle_move_number;
    // The claimed threats: each one of the threats found (the attacker's moves after a pass).
    if (!claim.threats.empty()) {
        Position passed = pos;
        passed.set_side_to_move_for_analysis(~pos.side_to_move());
        std::string threats;
        for (const PlayNode& f : found.children)
            if (f.kind == PlayNode::Kind::Threat)
                threats +=
                    (threats.empty() ? "" : ", ") + number(half_move + 1) + move_to_popeye(passed, f.move, false, lang);
        for (const ClaimNode& t : claim.threats) {
            const bool one = std::any_of(found.children.begin(), found.children.end(), [&](const PlayNode& f) {
                return f.kind == PlayNode::Kind::Threat && token_is_move_any(passed, f.move, t.token, lang);
            });
            if (!one)
                r.missing.push_back("line " + std::to_string(t.line) + ": after " + before + " " +
                                    number(half_move + 1) + t.token + " is no threat (" +
                                    (threats.empty() ? std::string("rebirth finds none") : "rebirth finds " + threats) +
                                    ")");
        }
    }
    for (const ClaimNode& d : claim.children) {
        const PlayNode* shown = nullptr;
        for (const PlayNode& f : found.children)
            if (f.kind == PlayNode::Kind::Defence && token_is_move_any(pos, f.move, d.token, lang)) shown = &f;
        if (!shown) {
            MoveList list;
            generate_legal(pos, list);
            if (std::none_of(list.begin(), list.end(),
                             [&](const Move& m) { return token_is_move_any(pos, m, d.token, lang); }))
                r.missing.push_back("line " + std::to_string(d.line) + ": after " + before + " " + number(half_move) +
                                    d.token + " is not a legal move there");
            continue;
        }
        Position after = pos;
        UndoInfo u;
        after.do_move(shown->move, u);
        const std::string defence = number(half_move) + move_to_popeye(pos, shown->move, false, lang);
        std::string continuations;
        for (const PlayNode& a : shown->children)
            continuations += (continuations.empty() ? "" : ", ") + number(half_move + 1) +
                             move_to_popeye(after, a.move, false, lang);
        for (const ClaimNode& a : d.children) {
            const PlayNode* answer = nullptr;
            for (const PlayNode& f : shown->children)
                if (token_is_move_any(after, f.move, a.token, lang)) answer = &f;
            if (!answer) {
                r.missing.push_back("line " + std::to_string(a.line) + ": after " + before + " " + defence + " " +
                                    number(half_move + 1) + a.token + " is no continuation (rebirth finds " +
                                    continuations + ")");
                continue;
            }
            Position next = after;
            UndoInfo v;
            next.do_move(answer->move, v);
            compare_play(
                a, *answer, next, lang,
                before + " " + defence + " " + number(half_move + 1) + move_to_popeye(after, answer->move, false, lang),
                half_move + 2, r);
        }
        if (!d.children.empty() && shown->children.size() > 1)
            r.duals.push_back("after " + before + " " + defence + ": " + continuations);
    }
}

// The kinds of play verify_claimed compares.
enum class Kind { Proof, Help, Battle };

// Popeye's text of solution `line` of a twin (`start`: the position its play starts from, its
// side to move `line.first`), without the leading blanks: a proof game numbered by White's
// moves ("1.e2-e4 e7-e5   2.Sg1-f3", Black first "1...e7-e5"), help and series play numbered as
// Popeye numbers them ("1.Kd5-e4 Qa1-d1   2.Ke4-f3 Qd1-f1 #", h#n.5 "1...X 2.Y Z"), a key
// "1.Sa8-b6!".
std::string solution_text(const Position& start, const PlayLine& line, Kind kind, const Problem& tw,
                          const TwinSetup& setup) {
    if (kind == Kind::Proof) return game_text(start, line.moves, tw.language);
    if (kind == Kind::Battle) return "1." + move_to_popeye(start, line.moves.front(), false, tw.language) + "!";
    // As the solver writes it (its play's numbering, introductory moves numbered apart).
    const SolveContext ctx = twin_context(tw, setup);
    std::string text = help_lines_text(ctx, line.play, {line});
    return text.substr(text.find_first_not_of("\n "));
}

}  // namespace

VerifyResult verify_claimed(const Problem& p, std::string_view claimed, int first_line, int threads,
                            const SolveLimits& limits) {
    VerifyResult r;
    const Kind kind = is_proof(p) ? Kind::Proof
                      : p.stipulation.series || p.stipulation.play == Stipulation::Play::Help ||
                              p.stipulation.play == Stipulation::Play::HelpSelf ||
                              p.stipulation.play == Stipulation::Play::HelpReflex
                          ? Kind::Help
                          : Kind::Battle;
    // Battle play: the claimed keys with the play claimed below them; the keys are its games.
    const std::vector<std::pair<int, ClaimNode>> trees = kind == Kind::Battle
                                                             ? claimed_trees(claimed, first_line, p.where.file)
                                                             : std::vector<std::pair<int, ClaimNode>>{};
    std::vector<ClaimedGame> games;
    if (kind == Kind::Battle)
        for (const auto& [twin, key] : trees) games.push_back({key.text, key.line, twin, false, {key.token}});
    else
        games = claimed_games(claimed, first_line, p.where.file);
    r.claimed = int(games.size());
    auto unverified = [&](std::string why) {
        r.verdict = "unverified";
        r.why = std::move(why);
        return r;
    };
    if (kind == Kind::Proof && p.stipulation.intro)
        return unverified("verifying claimed solutions of " + p.stipulation.text +
                          " is not implemented yet (no introductory moves before a proof game)");
    if (kind == Kind::Battle && p.options.post_key_play)
        return unverified("verifying the claims of PostKeyPlay is not implemented yet (no key)");
    if (kind == Kind::Battle && p.stipulation.retro())
        return unverified("rebirth verify compares solutions of forward play, not of " + p.stipulation.text);
    // Claimed variations of battle play are compared with the variations found (Option
    // Variation for the search when the problem does not ask for them).
    const bool variations = std::any_of(trees.begin(), trees.end(), [](const auto& t) {
        return !t.second.children.empty() || !t.second.threats.empty();
    });
    Problem searched = p;
    if (variations) searched.options.variation = true;
    const SolveReport report = solve_problem_report(searched, threads, limits);
    if (!report.supported) return unverified("rebirth does not solve " + p.stipulation.text + " here");
    if (report.timed_out) return unverified("the time limit stopped the search");
    if (report.partial) return unverified("MaxSolutions or StopOnShortSolutions cut the search");
    const std::vector<PlayLine>& found = kind == Kind::Proof  ? report.proof_games
                                         : kind == Kind::Help ? report.lines
                                                              : report.keys;
    r.found = int(std::count_if(found.begin(), found.end(), [](const PlayLine& l) { return !l.set_play; }));
    // Each twin's rules and the position its play starts from (proof games: the game array or
    // position a; else the diagram, the stipulation's side to move).
    const auto twins = twins_of(p);
    std::vector<std::unique_ptr<TwinSetup>> setups;
    for (const auto& [tw, line] : twins) setups.push_back(load_twin(tw));
    // The position each solution found starts from.
    std::vector<Position> starts;
    for (const PlayLine& s : found)
        starts.push_back(play_start(*setups.at(size_t(s.twin)), s.first, twins[size_t(s.twin)].first));
    const std::string what = kind == Kind::Proof ? "game " : "claim ";
    std::vector<bool> claimed_found(found.size(), false);
    for (size_t gi = 0; gi < games.size(); ++gi) {
        const ClaimedGame& g = games[gi];
        r.claimed_lines.push_back(g.text);
        const std::string where = what + std::to_string(gi + 1) + " (line " + std::to_string(g.line) + "): ";
        if (g.twin < 0 || size_t(g.twin) >= twins.size()) {
            r.missing.push_back(where + "the problem has no twin " + std::string(1, char('a' + g.twin)) + ")");
            continue;
        }
        const size_t t = size_t(g.twin);
        const Problem& tw = twins[t].first;
        const Position& diagram = setups[t]->pos;
        bool solution = false;
        std::string why;
        // A series proof game's lines are compared as series play's (the other side's passes
        // left out of the claim).
        if (kind == Kind::Proof && !tw.stipulation.series) {
            // The side the claim's numbering names first; a duplex's other play has the other
            // side first, numbered from its own first move ("1.Ra7*a8" by Black), as Popeye
            // writes it.
            std::vector<Color> firsts{g.black_first ? BLACK : WHITE};
            if (tw.options.duplex || tw.options.half_duplex) firsts.push_back(~firsts.front());
            for (const Color first : firsts) {
                const Position start = play_start(*setups[t], first, tw);
                ClaimedGame as_played = g;
                as_played.black_first = first == BLACK;
                // In the problem's language, else in another (a claim from another program).
                std::string not_legal;
                std::vector<std::vector<Move>> read = readings(start, as_played, p.language, not_legal);
                for (Language other : {Language::English, Language::French, Language::German}) {
                    std::string ignored;
                    if (read.empty() && other != p.language) read = readings(start, as_played, other, ignored);
                }
                if (why.empty()) why = not_legal;
                for (const std::vector<Move>& moves : read)
                    for (size_t k = 0; k < found.size(); ++k)
                        if (found[k].twin == g.twin && found[k].first == first && found[k].moves == moves) {
                            claimed_found[k] = true;
                            solution = true;
                        }
            }
            if (solution) why.clear();
            if (!solution && why.empty())
                why = "its " + std::to_string(g.tokens.size()) + " half-moves do not reach the diagram as stipulated";
        } else {
            for (size_t k = 0; k < found.size(); ++k) {
                if (found[k].twin != g.twin) continue;
                for (Language lang : {p.language, Language::English, Language::French, Language::German})
                    if (claim_is_line(starts[k], found[k].moves, g.tokens, lang)) {
                        claimed_found[k] = true;
                        solution = true;
                        break;
                    }
            }
            if (!solution) {
                // Where the claim leaves the legal moves (help play; series play passes), or
                // that its moves, all legal, are not a solution.
                if (!tw.stipulation.series) readings(diagram, g, p.language, why);
                if (why.empty())
                    why = kind == Kind::Battle ? "1." + g.tokens.front() + " is not a key: rebirth finds no " +
                                                     tw.stipulation.text + " after it"
                                               : "it is not a solution of " + tw.stipulation.text;
                else if (kind == Kind::Battle)
                    why = "1." + g.tokens.front() + " is not a legal move there";
            }
        }
        if (!solution) r.missing.push_back(where + why);
    }
    // The solutions found (set play, which a claim may name, is none).
    for (size_t k = 0; k < found.size(); ++k) {
        const PlayLine& s = found[k];
        if (s.set_play) continue;
        const size_t t = size_t(s.twin);
        const Problem& tw = twins[t].first;
        Position pos = starts[k];
        std::string text = solution_text(pos, s, kind, tw, *setups[t]);
        if (twins.size() > 1) text = std::string(1, char('a' + s.twin)) + ") " + text;
        r.games.push_back(text);
        if (!claimed_found[k]) r.cooks.push_back(text);
        std::vector<std::string> steps{placement(pos)};
        for (const Move& m : s.moves) {
            if (m.is_null()) {
                pos.set_side_to_move_for_analysis(~pos.side_to_move());
                continue;
            }
            UndoInfo u;
            pos.do_move(m, u);
            steps.push_back(placement(pos));
        }
        r.boards.push_back(std::move(steps));
    }
    // Battle play: each key found with the play rebirth shows below it, as Popeye writes it.
    std::vector<Position> tree_starts;  // the position each tree's key is played in
    for (const PlayTree& t : report.trees) {
        const Problem& tw = twins.at(size_t(t.twin)).first;
        tree_starts.push_back(play_start(*setups[size_t(t.twin)], t.first, tw));
        if (t.root.kind != PlayNode::Kind::Key) continue;
        std::string block =
            format_battle_block(tree_starts.back(), t.root, goal_from_text(tw.stipulation.goal), p.language);
        block.erase(0, block.find_first_not_of('\n'));
        r.trees.push_back((twins.size() > 1 ? std::string(1, char('a' + t.twin)) + ")\n" : std::string()) + block);
    }
    // The play claimed below each key found, compared with the play found.
    for (const auto& [twin, claim] : trees)
        for (size_t k = 0; k < report.trees.size(); ++k) {
            const PlayTree& t = report.trees[k];
            const Position& start = tree_starts[k];
            if (t.twin != twin || t.root.kind != PlayNode::Kind::Key ||
                !token_is_move_any(start, t.root.move, claim.token, p.language))
                continue;
            Position after = start;
            UndoInfo u;
            after.do_move(t.root.move, u);
            compare_play(claim, t.root, after, p.language, "1." + move_to_popeye(start, t.root.move, false, p.language),
                         1, r);
        }
    r.verdict = !r.missing.empty() ? "missing" : !r.cooks.empty() ? "cooked" : !r.duals.empty() ? "dual" : "sound";
    return r;
}

nlohmann::json claim_result(const ClaimedProblem& c, int threads, double max_seconds) {
    SolveLimits limits;
    limits.max_seconds = max_seconds;
    const VerifyResult r = verify_claimed(c.problem, c.claimed, c.claimed_line, threads, limits);
    nlohmann::json j{{"file", c.name}, {"verdict", r.verdict}, {"stipulation", c.problem.stipulation.text}};
    std::string conditions;
    for (const Condition& k : c.problem.conditions) {
        conditions += (conditions.empty() ? "" : ", ") + k.name;
        for (const std::string& a : k.args) conditions += " " + a;
    }
    if (!conditions.empty()) j["conditions"] = conditions;
    const std::string fen = to_fen(c.problem.setup);
    j["diagram"] = fen.substr(0, fen.find(' '));
    j["claimed_lines"] = r.claimed_lines;
    j["games"] = r.games;
    j["boards"] = r.boards;
    j["trees"] = r.trees;
    j["claimed"] = r.claimed;
    j["found"] = r.found;
    j["cooks"] = r.cooks;
    j["missing"] = r.missing;
    j["duals"] = r.duals;
    if (!r.why.empty()) j["why"] = r.why;
    return j;
}

std::string claim_result_text(const nlohmann::json& r) {
    std::string out = r["file"].get<std::string>() + ": " + r["verdict"].get<std::string>();
    if (r.contains("why"))
        out += ": " + r["why"].get<std::string>() + "\n";
    else
        out += " (" + std::to_string(r["claimed"].get<int>()) + " claimed, " + std::to_string(r["found"].get<int>()) +
               " found)\n";
    for (const auto& m : r.value("missing", nlohmann::json::array()))
        out += "  not a solution: " + m.get<std::string>() + "\n";
    for (const auto& g : r.value("cooks", nlohmann::json::array()))
        out += "  not claimed: " + g.get<std::string>() + "\n";
    for (const auto& d : r.value("duals", nlohmann::json::array())) out += "  dual: " + d.get<std::string>() + "\n";
    return out;
}

nlohmann::json checked_claim(const ClaimedProblem& c, int threads, double max_seconds) {
    try {
        if (c.error) throw *c.error;
        return claim_result(c, threads, max_seconds);
    } catch (const InputError& e) {
        return {{"file", c.name}, {"verdict", "bad-input"}, {"why", e.what()}};
    }
}

}  // namespace rebirth
