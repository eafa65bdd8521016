#include <array>
#include <cctype>

#include "io/popeye_parse.h"

namespace rebirth::popeye {

namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// Goals of py-engl.txt, longest first so that "##!" wins over "##" and "#" (target "zxy"
// and kiss "kxy" are read apart). Which of them rebirth solves is the solvers' business.
constexpr std::array<std::string_view, 18> kGoals{"##!", "<>r", "ctr", "c81", "##", "#=", "==", "!=", "!#",
                                                  "00",  "ep",  "ct",  "<>",  "#",  "=",  "x",  "+",  "%"};

// Reads a move count "n" or "n.5" at the start of `s`; false if malformed.
bool read_moves(std::string_view s, int& whole, bool& half) {
    size_t i = 0;
    whole = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
        whole = whole * 10 + (s[i] - '0');
        if (whole > 10000) return false;
        ++i;
    }
    if (i == 0) return false;
    half = false;
    if (i == s.size()) return true;
    if (s.substr(i) == ".5") {
        half = true;
        return true;
    }
    return false;
}

// Reads the move count that ends a stipulation: the rest `s` of its token, or, when that is
// empty, the next token (Popeye allows a blank before the number: "dia 4", "h# 2.5").
bool read_length(Lexer& lex, std::string_view s, int& whole, bool& half) {
    if (!s.empty()) return read_moves(s, whole, half);
    const auto next = lex.next();
    if (!next) return false;
    if (read_moves(to_lower(next->text), whole, half)) return true;
    lex.push_back(*next);
    return false;
}

std::string moves_text(int whole, bool half) { return std::to_string(whole) + (half ? ".5" : ""); }

}  // namespace

Stipulation parse_stipulation(Lexer& lex, const Token& token) {
    const std::string full = to_lower(token.text);
    std::string_view s = full;
    Stipulation st;
    std::string text;

    // Retro stipulations (rebirth's own; README "Retro problems"): "lastmoves N" (what were
    // the last N single moves?) and "lastmove" (which was the last move?).
    if (starts_with(s, "lastmove")) {
        st.play = Stipulation::Play::LastMoves;
        st.goal = "lastmoves";
        int whole = 1;
        bool half = false;
        if (s == "lastmove") {
            st.text = "lastmove";
        } else {
            if (!starts_with(s, "lastmoves") || !read_length(lex, s.substr(9), whole, half) || half || whole < 1 ||
                whole > 64)
                lex.fail(token, "malformed number of single moves (1 to 64) in stipulation");
            st.text = "lastmoves" + std::to_string(whole);
        }
        st.half_moves = whole;
        st.moves = whole;
        return st;
    }
    // Defensive retractors (rebirth's own; README "Retro problems"): "-n & #1", "-n & s#1",
    // "-n & =1", with or without blanks ("-3&#1", "-3 & #1", "-3& #1").
    if (s.size() > 1 && s[0] == '-' && std::isdigit(static_cast<unsigned char>(s[1]))) {
        std::string whole(s);
        while (whole.find('&') == std::string::npos || whole.back() == '&') {
            const auto more = lex.next();
            if (!more) break;
            whole += to_lower(more->text);
        }
        size_t i = 1;
        int n = 0;
        while (i < whole.size() && std::isdigit(static_cast<unsigned char>(whole[i])) && n <= 64)
            n = n * 10 + (whole[i++] - '0');
        const std::string goal = i < whole.size() && whole[i] == '&' ? whole.substr(i + 1) : std::string();
        if (n < 1 || n > 64 || (goal != "#1" && goal != "s#1" && goal != "=1"))
            lex.fail(token,
                     "malformed defensive retractor (-n & #1, -n & s#1 or -n & =1, n from 1 to 64): stipulation");
        st.play = Stipulation::Play::Retractor;
        st.goal = goal;
        st.text = "-" + std::to_string(n) + " & " + goal;
        st.half_moves = n;
        st.moves = n;
        return st;
    }

    // n-> : introductory moves.
    if (const size_t arrow = s.find("->"); arrow != std::string_view::npos && arrow > 0 && s.substr(0, 3) != "a=>") {
        int n = 0;
        bool half = false;
        if (!read_moves(s.substr(0, arrow), n, half) || half || n == 0)
            lex.fail(token, "malformed number of introductory moves in stipulation");
        st.intro = n;
        text += std::to_string(n) + "->";
        s.remove_prefix(arrow + 2);
    }
    if (starts_with(s, "exact-")) {
        st.exact = true;
        text += "exact-";
        s.remove_prefix(6);
    }
    for (std::string_view unsupported : {"pser-", "phser-", "semi-", "reci-"})
        if (starts_with(s, unsupported)) lex.fail(token, "stipulation not supported by rebirth:");
    if (starts_with(s, "ser-")) {
        st.series = true;
        text += "ser-";
        s.remove_prefix(4);
    }
    if (st.intro > 0 && !st.series) lex.fail(token, "introductory moves need a series stipulation:");

    int whole = 0;
    bool half = false;
    if (starts_with(s, "dia") || starts_with(s, "a=>b")) {
        const bool dia = starts_with(s, "dia");
        st.play = dia ? Stipulation::Play::ProofGame : Stipulation::Play::AToB;
        st.goal = dia ? "dia" : "a=>b";
        s.remove_prefix(st.goal.size());
        if (!read_length(lex, s, whole, half)) lex.fail(token, "malformed number of moves in stipulation");
        if (half && st.series) lex.fail(token, "a series proof game takes a whole number of moves:");
        st.half_moves = st.series ? whole : 2 * whole + (half ? 1 : 0);
    } else {
        // Play: hs, hr, h, s, r (or none: direct).
        if (starts_with(s, "hs")) {
            st.play = Stipulation::Play::HelpSelf;
        } else if (starts_with(s, "hr")) {
            st.play = Stipulation::Play::HelpReflex;
        } else if (starts_with(s, "h")) {
            st.play = Stipulation::Play::Help;
        } else if (starts_with(s, "s")) {
            st.play = Stipulation::Play::Self;
        } else if (starts_with(s, "r")) {
            st.play = Stipulation::Play::Reflex;
        }
        const size_t play_len = st.play == Stipulation::Play::HelpSelf || st.play == Stipulation::Play::HelpReflex ? 2
                                : st.play == Stipulation::Play::Direct                                             ? 0
                                                                                                                   : 1;
        text.append(s.data(), play_len);
        s.remove_prefix(play_len);
        for (std::string_view g : kGoals) {
            if (starts_with(s, g)) {
                st.goal = std::string(g);
                break;
            }
        }
        if (st.goal.empty() && !s.empty() && s[0] == '~') st.goal.assign(1, '~');
        if (st.goal.empty() && s.size() >= 3 && (s[0] == 'z' || s[0] == 'k') && parse_square(s.substr(1, 2)) != SQ_NONE)
            st.goal = std::string(s.substr(0, 3));
        if (st.goal.empty()) lex.fail(token, "unknown goal in stipulation");
        s.remove_prefix(st.goal.size());
        if (!read_length(lex, s, whole, half) || (whole == 0 && !half))
            lex.fail(token, "malformed number of moves in stipulation");
        using P = Stipulation::Play;
        const bool help = st.play == P::Help || st.play == P::HelpSelf || st.play == P::HelpReflex;
        if (half && (!help || st.series)) lex.fail(token, "only help play takes n.5 moves:");
        if (st.series) {
            st.half_moves = whole + (st.play == P::Direct ? 0 : 1);
        } else if (help) {
            st.half_moves = 2 * whole + (half ? 1 : 0);
        } else {
            st.half_moves = 2 * whole - (st.play == P::Direct ? 1 : 0);
        }
    }
    st.half_moves += st.intro;
    st.moves = whole + (half ? 0.5 : 0.0);
    text += st.goal;
    text += moves_text(whole, half);
    // Popeye writes "exact-" only for plays longer than two half-moves: exact-#1 and
    // exact-h#1 are printed #1 and h#1 (output/plaintext/stipulation.c).
    const int play_half_moves = st.half_moves - st.intro;
    if (st.exact && (play_half_moves <= 2 || (st.series && whole <= 1))) text.erase(text.find("exact-"), 6);
    st.text = std::move(text);
    return st;
}

}  // namespace rebirth::popeye
