#include "rebirth/pgn.h"

#include <algorithm>
#include <stdexcept>

#include "rebirth/movegen.h"
#include "rebirth/notation.h"
#include "rebirth/rules.h"

namespace rebirth {

namespace {

std::string escape_tag(const std::string& value) {
    std::string s;
    for (const char c : value) {
        if (c == '"' || c == '\\') s += '\\';
        s += c == '\n' ? ' ' : c;
    }
    return s;
}

// Appends the movetext tokens, breaking lines between tokens before 80 characters.
class Wrapper {
  public:
    void add(const std::string& token) {
        if (!line_.empty() && line_.size() + 1 + token.size() > 79) flush();
        if (!line_.empty()) line_ += ' ';
        line_ += token;
    }
    std::string finish() {
        flush();
        return out_;
    }

  private:
    void flush() {
        if (line_.empty()) return;
        out_ += line_ + "\n";
        line_.clear();
    }
    std::string out_, line_;
};

}  // namespace

std::string pgn_game(const std::vector<PgnTag>& tags, const Position& start, const std::vector<Move>& moves,
                     const std::string& result) {
    std::string out;
    for (const PgnTag& t : tags) out += "[" + t.name + " \"" + escape_tag(t.value) + "\"]\n";
    out += "\n";
    Wrapper text;
    Position pos = start;
    int number = 1;
    for (size_t i = 0; i < moves.size(); ++i) {
        const Move& m = moves[i];
        if (m.is_null()) {
            // A pass of series play: the null move "--" of PGN readers (SCID, ChessBase).
            if (pos.side_to_move() == WHITE)
                text.add(std::to_string(number) + ".");
            else if (i == 0)
                text.add(std::to_string(number) + "...");
            text.add("--");
            if (pos.side_to_move() == BLACK) ++number;
            pos.set_side_to_move_for_analysis(~pos.side_to_move());
            continue;
        }
        MoveList legal;
        generate_legal(pos, legal);
        if (std::find(legal.begin(), legal.end(), m) == legal.end())
            throw std::invalid_argument("move " + std::to_string(i + 1) + " of the game is not legal in its position");
        const bool white = pos.side_to_move() == WHITE;
        if (white)
            text.add(std::to_string(number) + ".");
        else if (i == 0)
            text.add(std::to_string(number) + "...");
        text.add(move_to_san(pos, m));
        if (pos.has_rules()) {
            const std::string popeye = move_to_popeye(pos, m);
            const bool detour = m.extra != SQ_NONE && (pos.rules()->mars || pos.rules()->antimars);
            if (detour || popeye.find('[') != std::string::npos) text.add("{" + popeye + "}");
        }
        UndoInfo u;
        pos.do_move(m, u);
        if (!white) ++number;
    }
    text.add(result);
    return out + text.finish() + "\n";
}

}  // namespace rebirth
