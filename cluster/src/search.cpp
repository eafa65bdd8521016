#include "rebirth/cluster/search.h"

#include <tbb/task_arena.h>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "rebirth/error.h"
#include "rebirth/movegen.h"
#include "rebirth/notation.h"
#include "rebirth/perft.h"
#include "rebirth/popeye_input.h"
#include "rebirth/popeye_output.h"
#include "rebirth/retro_problem.h"
#include "rebirth/solve.h"
#include "rebirth/verify.h"

namespace rebirth::cluster {

namespace {

int parse_int(std::string_view s, std::string_view token) {
    if (s.empty() || s.size() > 3) throw std::invalid_argument("bad move token '" + std::string(token) + "'");
    int v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') throw std::invalid_argument("bad move token '" + std::string(token) + "'");
        v = v * 10 + (c - '0');
    }
    if (v > 255) throw std::invalid_argument("bad move token '" + std::string(token) + "'");
    return v;
}

Square parse_sq(std::string_view s, std::string_view token) {
    Square sq = s.size() == 2 ? parse_square(s) : SQ_NONE;
    if (sq == SQ_NONE) throw std::invalid_argument("bad square in move token '" + std::string(token) + "'");
    return sq;
}

// The position's legal moves, as a vector (MoveList is too big to keep many of).
std::vector<Move> legal_moves(const Position& pos) {
    MoveList list;
    generate_legal(pos, list);
    return {list.begin(), list.end()};
}

}  // namespace

std::string move_token(const PathMove& pm) {
    const Move& m = pm.move;
    std::string t = square_name(m.from) + square_name(m.to);
    if (m.kind != MoveKind::Normal) t += ":k" + std::to_string(int(m.kind));
    if (m.promotion != NO_WALK) t += ":p" + std::to_string(int(m.promotion));
    if (m.rebirth != SQ_NONE) t += ":r" + square_name(m.rebirth);
    if (m.rebirth_walk != NO_WALK) t += ":w" + std::to_string(int(m.rebirth_walk));
    if (m.extra != SQ_NONE) t += ":x" + square_name(m.extra);
    if (m.spare != 0) t += ":s" + std::to_string(int(m.spare));
    if (pm.occurrence != 0) t += ":o" + std::to_string(int(pm.occurrence));
    return t;
}

PathMove parse_move_token(std::string_view token) {
    if (token.size() < 4) throw std::invalid_argument("bad move token '" + std::string(token) + "'");
    PathMove pm;
    Move& m = pm.move;
    m.from = parse_sq(token.substr(0, 2), token);
    m.to = parse_sq(token.substr(2, 2), token);
    std::string_view rest = token.substr(4);
    while (!rest.empty()) {
        if (rest.size() < 3 || rest[0] != ':')
            throw std::invalid_argument("bad move token '" + std::string(token) + "'");
        std::size_t end = rest.find(':', 1);
        std::string_view field = rest.substr(1, end == std::string_view::npos ? std::string_view::npos : end - 1);
        rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end);
        std::string_view value = field.substr(1);
        switch (field[0]) {
            case 'k': {
                int k = parse_int(value, token);
                if (k > int(MoveKind::Castling))
                    throw std::invalid_argument("bad move kind in '" + std::string(token) + "'");
                m.kind = MoveKind(k);
                break;
            }
            case 'p':
                m.promotion = Walk(parse_int(value, token));
                break;
            case 'r':
                m.rebirth = parse_sq(value, token);
                break;
            case 'w':
                m.rebirth_walk = Walk(parse_int(value, token));
                break;
            case 'x':
                m.extra = parse_sq(value, token);
                break;
            case 's':
                m.spare = std::uint8_t(parse_int(value, token));
                break;
            case 'o':
                pm.occurrence = std::uint8_t(parse_int(value, token));
                break;
            default:
                throw std::invalid_argument("bad field in move token '" + std::string(token) + "'");
        }
    }
    if (move_token(pm) != token) throw std::invalid_argument("non-canonical move token '" + std::string(token) + "'");
    return pm;
}

std::string path_key(const Path& path) {
    std::string key;
    for (const PathMove& m : path) {
        if (!key.empty()) key += ' ';
        key += move_token(m);
    }
    return key;
}

Path parse_path_key(std::string_view key) {
    Path path;
    while (!key.empty()) {
        std::size_t sp = key.find(' ');
        path.push_back(parse_move_token(key.substr(0, sp)));
        key = sp == std::string_view::npos ? std::string_view{} : key.substr(sp + 1);
    }
    return path;
}

namespace {

// "twin/play/side" of a line or tree, and its parse (the fields' text before the first blank).
std::string play_head(int twin, int play, Color first) {
    return std::to_string(twin) + "/" + std::to_string(play) + "/" + (first == WHITE ? "w" : "b");
}

void parse_play_head(std::string_view head, std::string_view key, int& twin, int& play, Color& first, bool& set_play) {
    const std::size_t a = head.find('/'), b = a == std::string_view::npos ? a : head.find('/', a + 1);
    if (b == std::string_view::npos) throw std::invalid_argument("bad play key '" + std::string(key) + "'");
    twin = parse_int(head.substr(0, a), key);
    play = parse_int(head.substr(a + 1, b - a - 1), key);
    const std::string_view side = head.substr(b + 1);
    if (side != "w" && side != "b" && side != "ws" && side != "bs")
        throw std::invalid_argument("bad play key '" + std::string(key) + "'");
    first = side[0] == 'w' ? WHITE : BLACK;
    set_play = side.size() == 2;
}

// The words of `key` split at single blanks.
std::vector<std::string_view> words_of(std::string_view key) {
    std::vector<std::string_view> out;
    while (!key.empty()) {
        const std::size_t sp = key.find(' ');
        out.push_back(key.substr(0, sp));
        key = sp == std::string_view::npos ? std::string_view{} : key.substr(sp + 1);
    }
    return out;
}

std::string_view kind_codes = "KTtDARSPO";  // PlayNode::Kind in order
std::string_view then_codes = "NLFTZ";      // PlayNode::Then in order

}  // namespace

std::string play_line_key(const PlayLine& line) {
    std::string out = play_head(line.twin, line.play, line.first);
    if (line.set_play) out += 's';
    if (line.restart >= 0) out.append("@").append(std::to_string(line.restart));
    for (const Move& m : line.moves)
        out.append(" ").append(m.is_null() ? std::string("pass") : move_token(PathMove{m, 0}));
    return out;
}

PlayLine parse_play_line_key(std::string_view key) {
    const std::vector<std::string_view> words = words_of(key);
    if (words.empty()) throw std::invalid_argument("empty play key");
    PlayLine line;
    std::string_view head = words[0];
    if (const std::size_t at = head.find('@'); at != std::string_view::npos) {
        line.restart = parse_int(head.substr(at + 1), key);
        head = head.substr(0, at);
    }
    parse_play_head(head, key, line.twin, line.play, line.first, line.set_play);
    for (std::size_t i = 1; i < words.size(); ++i) {
        if (words[i] == "pass") {
            line.moves.push_back(Move{});
            continue;
        }
        const PathMove pm = parse_move_token(words[i]);
        if (pm.occurrence != 0) throw std::invalid_argument("bad move token '" + std::string(words[i]) + "'");
        line.moves.push_back(pm.move);
    }
    return line;
}

std::string play_tree_key(const PlayTree& tree) {
    std::string out = play_head(tree.twin, tree.play, tree.first);
    for (const FlatNode& n : flatten_tree(tree.root)) {
        out.append(" ").append(std::to_string(n.depth)).append(".");
        out.push_back(kind_codes[std::size_t(n.kind)]);
        out.append(n.goal ? ".1." : ".0.");
        out.push_back(then_codes[std::size_t(n.then)]);
        out.append("/").append(move_token(PathMove{n.move, 0}));
    }
    return out;
}

PlayTree parse_play_tree_key(std::string_view key) {
    const std::vector<std::string_view> words = words_of(key);
    if (words.size() < 2) throw std::invalid_argument("bad tree key '" + std::string(key) + "'");
    PlayTree tree;
    bool set_play = false;
    parse_play_head(words[0], key, tree.twin, tree.play, tree.first, set_play);
    if (set_play) throw std::invalid_argument("bad tree key '" + std::string(key) + "'");
    std::vector<FlatNode> nodes;
    for (std::size_t i = 1; i < words.size(); ++i) {
        const std::string_view w = words[i];
        const std::size_t slash = w.find('/');
        const std::size_t d = w.find('.');
        if (slash == std::string_view::npos || d == std::string_view::npos || d > slash || slash != d + 6 ||
            w[d + 2] != '.' || w[d + 4] != '.')
            throw std::invalid_argument("bad tree node '" + std::string(w) + "'");
        FlatNode n;
        n.depth = parse_int(w.substr(0, d), key);
        const std::size_t kind = kind_codes.find(w[d + 1]), then = then_codes.find(w[d + 5]);
        if (kind == std::string_view::npos || then == std::string_view::npos || (w[d + 3] != '0' && w[d + 3] != '1'))
            throw std::invalid_argument("bad tree node '" + std::string(w) + "'");
        n.kind = PlayNode::Kind(kind);
        n.then = PlayNode::Then(then);
        n.goal = w[d + 3] == '1';
        const PathMove pm = parse_move_token(w.substr(slash + 1));
        if (pm.occurrence != 0) throw std::invalid_argument("bad tree node '" + std::string(w) + "'");
        n.move = pm.move;
        nodes.push_back(n);
    }
    try {
        tree.root = unflatten_tree(nodes);
    } catch (const ProtocolError& e) {
        throw std::invalid_argument(std::string("bad tree key: ") + e.what());
    }
    return tree;
}

namespace {

// Splits `text` at every `sep`.
std::vector<std::string_view> split_at(std::string_view text, char sep) {
    std::vector<std::string_view> out;
    for (;;) {
        const std::size_t at = text.find(sep);
        out.push_back(text.substr(0, at));
        if (at == std::string_view::npos) return out;
        text = text.substr(at + 1);
    }
}

// A move of a retro token (no occurrence).
Move parse_plain_move(std::string_view token) {
    const PathMove pm = parse_move_token(token);
    if (pm.occurrence != 0) throw std::invalid_argument("bad move token '" + std::string(token) + "'");
    return pm.move;
}

}  // namespace

namespace {

// An un-move's fields after its move, as numbers, and their defaults (UnMove{}).
constexpr std::size_t kUnMoveFields = 17;
constexpr std::array<int, kUnMoveFields> kUnMoveDefaults = {0, 64, 64, 0, 0, 0, 0, 0, 0, 0, 64, 0, 64, 0, 0, 0, 64};

std::array<int, kUnMoveFields> unmove_fields(const UnMove& u) {
    return {u.uncaptured,
            u.unreborn,
            u.capturer_now,
            u.resurrected.walk,
            u.resurrected.color,
            u.resurrected.flags,
            u.capturer_before.walk,
            u.capturer_before.color,
            u.capturer_before.flags,
            u.capturer_lost,
            u.rook_from,
            u.uncaptured_flags,
            u.parrain_square,
            u.parrain_piece.walk,
            u.parrain_piece.color,
            u.parrain_piece.flags,
            u.parrain_rebirth};
}

}  // namespace

std::string unmove_token(const UnMove& u) {
    static_assert(SQ_NONE == 64 && NO_WALK == 0 && WHITE == 0);
    const std::array<int, kUnMoveFields> fields = unmove_fields(u);
    std::string t = move_token(PathMove{u.move, 0});
    char sep = '/';
    for (std::size_t i = 0; i < kUnMoveFields; ++i)
        if (fields[i] != kUnMoveDefaults[i]) {
            t.push_back(sep);
            t.push_back(char('a' + i));
            t.append(std::to_string(fields[i]));
            sep = '.';
        }
    return t;
}

UnMove parse_unmove_token(std::string_view token) {
    const std::vector<std::string_view> parts = split_at(token, '/');
    if (parts.size() > 2 || (parts.size() == 2 && parts[1].empty()))
        throw std::invalid_argument("bad un-move token '" + std::string(token) + "'");
    std::array<int, kUnMoveFields> v = kUnMoveDefaults;
    if (parts.size() == 2)
        for (std::string_view field : split_at(parts[1], '.')) {
            if (field.size() < 2 || field[0] < 'a' || field[0] >= char('a' + kUnMoveFields))
                throw std::invalid_argument("bad un-move token '" + std::string(token) + "'");
            v[std::size_t(field[0] - 'a')] = parse_int(field.substr(1), token);
        }
    for (int i : {4, 7, 9, 14})
        if (v[std::size_t(i)] > 1) throw std::invalid_argument("bad un-move token '" + std::string(token) + "'");
    UnMove u;
    u.move = parse_plain_move(parts[0]);
    auto piece = [&](int at) {
        return Piece{Walk(v[std::size_t(at)]), Color(v[std::size_t(at + 1)]), std::uint8_t(v[std::size_t(at + 2)])};
    };
    u.uncaptured = Walk(v[0]);
    u.unreborn = Square(v[1]);
    u.capturer_now = Square(v[2]);
    u.resurrected = piece(3);
    u.capturer_before = piece(6);
    u.capturer_lost = v[9] == 1;
    u.rook_from = Square(v[10]);
    u.uncaptured_flags = std::uint8_t(v[11]);
    u.parrain_square = Square(v[12]);
    u.parrain_piece = piece(13);
    u.parrain_rebirth = Square(v[16]);
    // One text per un-move: fields in order, each once, none at its default.
    if (unmove_token(u) != token)
        throw std::invalid_argument("non-canonical un-move token '" + std::string(token) + "'");
    return u;
}

std::string retro_sequence_key(const std::vector<UnMove>& sequence) {
    std::string key;
    for (const UnMove& u : sequence) key.append(key.empty() ? "" : " ").append(unmove_token(u));
    return key;
}

std::vector<UnMove> parse_retro_sequence_key(std::string_view key) {
    std::vector<UnMove> out;
    for (std::string_view w : words_of(key)) out.push_back(parse_unmove_token(w));
    if (out.empty()) throw std::invalid_argument("empty retro sequence");
    return out;
}

std::string retractor_step_key(const RetractorStep& step) {
    static constexpr std::string_view values = "WFU";  // RetractorValue in order
    std::string key;
    for (const FlatStep& s : flatten_steps(step)) {
        if (!key.empty()) key += ' ';
        key.append(std::to_string(s.depth)).append(s.side == WHITE ? ".w." : ".b.");
        key.push_back(values[std::size_t(s.value)]);
        key.append(s.timed_out ? ".1~" : ".0~").append(unmove_token(s.retraction)).append("~");
        for (std::size_t i = 0; i < s.forward.size(); ++i)
            key.append(i ? "," : "").append(move_token(PathMove{s.forward[i], 0}));
    }
    return key;
}

RetractorStep parse_retractor_step_key(std::string_view key) {
    static constexpr std::string_view values = "WFU";
    std::vector<FlatStep> steps;
    for (std::string_view w : words_of(key)) {
        const std::vector<std::string_view> parts = split_at(w, '~');
        if (parts.size() != 3) throw std::invalid_argument("bad retractor step '" + std::string(w) + "'");
        const std::vector<std::string_view> head = split_at(parts[0], '.');
        if (head.size() != 4 || (head[1] != "w" && head[1] != "b") || head[2].size() != 1 ||
            values.find(head[2][0]) == std::string_view::npos || (head[3] != "0" && head[3] != "1"))
            throw std::invalid_argument("bad retractor step '" + std::string(w) + "'");
        FlatStep s;
        s.depth = parse_int(head[0], w);
        s.side = head[1] == "w" ? WHITE : BLACK;
        s.value = RetractorValue(values.find(head[2][0]));
        s.timed_out = head[3] == "1";
        s.retraction = parse_unmove_token(parts[1]);
        if (!parts[2].empty())
            for (std::string_view m : split_at(parts[2], ',')) s.forward.push_back(parse_plain_move(m));
        steps.push_back(std::move(s));
    }
    try {
        RetractorStep step = unflatten_steps(steps);
        if (retractor_step_key(step) != key) throw std::invalid_argument("non-canonical retractor tree");
        return step;
    } catch (const ProtocolError& e) {
        throw std::invalid_argument(std::string("bad retractor tree: ") + e.what());
    }
}

LoadedProblem load_problem(const std::string& file, int index) {
    LoadedProblem out;
    std::string text = read_file_bytes(file);
    out.file_hash = checksum(text);
    std::vector<Problem> problems = parse_popeye(text, file);
    if (index < 1 || index > int(problems.size()))
        throw InputError(file, 0, std::to_string(index),
                         "the file holds " + std::to_string(problems.size()) + " problem(s); no problem");
    const Problem& p = problems[index - 1];
    int condition_line = p.condition_line ? p.condition_line : p.where.line;
    out.rules = std::make_unique<RuleSet>(resolve_rules(p.conditions, file, condition_line));
    SetupRules setup_rules;
    setup_rules.require_white_king = !p.options.no_white_king;
    setup_rules.require_black_king = !p.options.no_black_king;
    setup_rules.rules = out.rules.get();
    try {
        out.root.set(p.setup, setup_rules, file);
    } catch (const InputError& e) {
        if (e.line() != 0) throw;
        throw InputError(file, p.where.line, e.word(), e.reason());
    }
    return out;
}

std::vector<PathMove> legal_path_moves(const Position& pos) {
    std::vector<PathMove> out;
    for (const Move& m : legal_moves(pos)) {
        auto before = std::count_if(out.begin(), out.end(), [&](const PathMove& o) { return o.move == m; });
        if (before > 255) throw std::runtime_error("more than 256 identical moves in one position");
        out.push_back({m, std::uint8_t(before)});
    }
    return out;
}

void replay(Position& pos, const Path& path) {
    static thread_local UndoInfo scratch;
    for (std::size_t i = 0; i < path.size(); ++i) {
        std::vector<PathMove> moves = legal_path_moves(pos);
        if (std::find(moves.begin(), moves.end(), path[i]) == moves.end()) {
            auto copies =
                std::count_if(moves.begin(), moves.end(), [&](const PathMove& m) { return m.move == path[i].move; });
            std::string where = "move " + std::to_string(i + 1) + " of path '" + path_key(path) + "'";
            if (copies == 0) throw std::runtime_error(where + " is not legal in its position");
            throw std::runtime_error(where + " has no such occurrence: its position's legal move list holds it " +
                                     std::to_string(copies) + " time(s)");
        }
        pos.do_move(path[i].move, scratch);  // never undone: the record is not needed again
    }
}

std::vector<std::pair<Path, std::string>> root_moves(const Position& root) {
    std::vector<std::pair<Path, std::string>> out;
    for (const PathMove& m : legal_path_moves(root)) out.push_back({Path{m}, move_to_popeye(root, m.move, true)});
    return out;
}

std::vector<Path> initial_split(const Position& root, int depth, int target, int min_left) {
    struct Node {
        double estimate;
        std::size_t seq;
        Path path;
    };
    const double branching = std::max<double>(1.0, double(legal_moves(root).size()));
    std::size_t seq = 0;
    // Estimated leaves below a node with `left` plies to go: exact to two plies, then
    // the root's branching factor per further ply.
    auto estimate = [&](const Path& path) {
        int left = depth - int(path.size());
        Position pos = root;
        replay(pos, path);
        int exact = std::min(left, 2);
        return double(perft(pos, exact)) * std::pow(branching, left - exact);
    };
    std::vector<Node> items;
    for (const PathMove& m : legal_path_moves(root)) {
        Path p{m};
        items.push_back({estimate(p), seq++, p});
    }
    auto larger = [](const Node& a, const Node& b) {
        return a.estimate != b.estimate ? a.estimate > b.estimate : a.seq < b.seq;
    };
    while (int(items.size()) < target) {
        auto it = std::min_element(items.begin(), items.end(), [&](const Node& a, const Node& b) {
            bool ea = depth - int(a.path.size()) > min_left, eb = depth - int(b.path.size()) > min_left;
            if (ea != eb) return ea;
            return larger(a, b);
        });
        if (it == items.end() || depth - int(it->path.size()) <= min_left) break;
        Node node = std::move(*it);
        items.erase(it);
        Position pos = root;
        replay(pos, node.path);
        for (const PathMove& m : legal_path_moves(pos)) {
            Path p = node.path;
            p.push_back(m);
            items.push_back({estimate(p), seq++, p});
        }
    }
    std::sort(items.begin(), items.end(), larger);
    std::vector<Path> out;
    for (Node& n : items) out.push_back(std::move(n.path));
    return out;
}

const LoadedProblem& ProblemCache::get(const WorkItem& item) {
    std::lock_guard lock(mutex_);
    auto key = std::make_pair(item.file, int(item.problem_index));
    auto it = loaded_.find(key);
    if (it == loaded_.end()) it = loaded_.emplace(key, load_problem(item.file, item.problem_index)).first;
    if (it->second.file_hash != item.file_hash)
        throw std::runtime_error(item.file + " differs from the master's copy (checksum mismatch)");
    return it->second;
}

const Problem& ProblemCache::problem(const WorkItem& item) {
    std::lock_guard lock(mutex_);
    auto it = parsed_.find(item.file);
    if (it == parsed_.end()) {
        std::string text = read_file_bytes(item.file);
        ParsedFile f;
        f.hash = checksum(text);
        f.problems = parse_popeye(text, item.file);
        it = parsed_.emplace(item.file, std::move(f)).first;
    }
    if (it->second.hash != item.file_hash)
        throw std::runtime_error(item.file + " differs from the master's copy (checksum mismatch)");
    const auto& problems = it->second.problems;
    if (item.problem_index < 1 || item.problem_index > int(problems.size()))
        throw std::runtime_error(item.file + " holds " + std::to_string(problems.size()) + " problem(s); no problem " +
                                 std::to_string(item.problem_index));
    return problems[std::size_t(item.problem_index - 1)];
}

const ClaimedProblem& ProblemCache::claim(const WorkItem& item) {
    std::lock_guard lock(mutex_);
    auto it = claims_.find(item.file);
    if (it == claims_.end()) {
        ClaimsFile f;
        f.hash = checksum(read_file_bytes(item.file));
        f.claims = read_claims(item.file);
        it = claims_.emplace(item.file, std::move(f)).first;
    }
    if (it->second.hash != item.file_hash)
        throw std::runtime_error(item.file + " differs from the master's copy (checksum mismatch)");
    const auto& claims = it->second.claims;
    if (item.problem_index < 1 || item.problem_index > int(claims.size()))
        throw std::runtime_error(item.file + " holds " + std::to_string(claims.size()) +
                                 " claimed problem(s); no problem " + std::to_string(item.problem_index));
    return claims[std::size_t(item.problem_index - 1)];
}

Result check_claim_item(const WorkItem& item, ProblemCache& cache) {
    const auto start = std::chrono::steady_clock::now();
    const nlohmann::json j = checked_claim(cache.claim(item), item.threads, item.max_seconds);
    Result r;
    r.item_id = item.item_id;
    r.problem = item.problem;
    r.status = Result::Status::Solved;
    r.text = j.dump() + "\n";
    r.solve_status = j["verdict"].get<std::string>();
    r.solutions = j.value("found", 0);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

std::shared_ptr<const std::vector<std::vector<UnMove>>> ProblemCache::retro_prefixes(const WorkItem& item) {
    const Problem& p = problem(item);  // checks the file's checksum
    const RetroKey key{item.file, int(item.problem_index), int(item.twin), int(item.phase), int(item.depth)};
    {
        std::lock_guard lock(mutex_);
        auto it = std::find_if(retro_.begin(), retro_.end(), [&](const auto& e) { return e.first == key; });
        if (it != retro_.end()) {
            retro_.splice(retro_.begin(), retro_, it);
            return retro_.front().second;
        }
    }
    // Worked out without the lock (two threads may both do it; either result is the same).
    auto prefixes = std::make_shared<const std::vector<std::vector<UnMove>>>(
        retro_side_prefixes(p, item.depth, item.twin, item.phase));
    std::lock_guard lock(mutex_);
    retro_.emplace_front(key, prefixes);
    if (retro_.size() > kRetroSides) retro_.pop_back();
    return prefixes;
}

std::shared_ptr<const ProofTwinSolver> ProblemCache::proof_solver(const WorkItem& item) {
    const Problem& p = problem(item);  // checks the file's checksum
    const ProofKey key{item.file, int(item.problem_index), int(item.twin)};
    std::lock_guard lock(mutex_);
    auto it = std::find_if(proof_.begin(), proof_.end(), [&](const auto& e) { return e.first == key; });
    if (it != proof_.end()) {
        proof_.splice(proof_.begin(), proof_, it);
    } else {
        proof_.emplace_front(key, std::make_shared<const ProofTwinSolver>(p, item.twin));
        if (proof_.size() > kProofSolvers) proof_.pop_back();
    }
    return proof_.front().second;
}

Result solve_one(const Problem& p, int threads, double max_seconds) {
    Result r;
    r.status = Result::Status::Solved;
    try {
        const auto t0 = std::chrono::steady_clock::now();
        if (p.stipulation.retro()) {
            // A retro problem: one item per side (retro_problem.h), its answers as data.
            r.retro_whole = solve_whole_retro(p, threads, max_seconds);
            // Its own answers: not checked again, only counted (the master checks them).
            const RetroAssembly a = assemble_retro(p, whole_retro_plan(p), r.retro_whole, true);
            r.solve_status = a.supported ? "solved" : "unsupported";
            r.solutions = a.count;
            r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            return r;
        }
        SolveLimits limits;
        limits.max_seconds = max_seconds;
        SolveReport report = solve_problem_report(p, threads, limits);
        r.outputs = std::move(report.outputs);
        r.solve_status = report.status();
        r.solutions = report.solutions;
        r.nodes = report.nodes;
        r.seconds = report.seconds;
    } catch (const InputError& e) {
        r.outputs.clear();
        r.retro_whole.clear();
        r.solve_status = "bad-input";
        r.error = e.what();
    }
    return r;
}

std::string whole_problem_text(const Problem& p, const Result& r, double max_seconds, std::string* status,
                               int* solutions) {
    if (r.status != Result::Status::Solved)
        throw std::invalid_argument("a whole problem's result not of status solved");
    std::string text = format_header(p);
    if (!r.error.empty()) {
        if (!r.outputs.empty() || !r.retro_whole.empty()) throw std::invalid_argument("bad input with solutions");
        if (status) *status = "bad-input";
        if (solutions) *solutions = 0;
        return text + "rebirth: " + r.error + "\n\n";
    }
    if (p.stipulation.retro()) {
        if (!r.outputs.empty()) throw std::invalid_argument("solve play's twins for a retro problem");
        const RetroAssembly a = assemble_retro(p, whole_retro_plan(p), r.retro_whole);
        if (status) *status = a.supported ? "solved" : "unsupported";
        if (solutions) *solutions = a.count;
        return text + a.text;
    }
    if (!r.retro_whole.empty()) throw std::invalid_argument("retro answers for a problem of solve play");
    SolveReport report;
    report.outputs = r.outputs;
    SolveLimits limits;
    limits.max_seconds = max_seconds;
    render_solve_report(p, report, limits);
    if (status) *status = report.status();
    if (solutions) *solutions = report.solutions;
    return text + report.text;
}

std::string solve_item_key(const SolveRootItem& item) {
    return std::to_string(item.twin) + "." + std::to_string(item.phase) + "/" + path_key(solve_item_path(item));
}

Path solve_item_path(const SolveRootItem& item) {
    if (item.occurrence > 255 || item.reply_occurrence > 255) throw std::runtime_error("more than 256 identical moves");
    Path path{PathMove{item.move, std::uint8_t(item.occurrence)}};
    if (item.reply >= 0) path.push_back(PathMove{item.reply_move, std::uint8_t(item.reply_occurrence)});
    return path;
}

namespace {

Result fragment_result(SolveFragment f) {
    Result r;
    r.status = Result::Status::Fragment;
    r.lines = std::move(f.lines);
    r.trees = std::move(f.trees);
    r.timed_out = f.timed_out;
    r.nodes = f.nodes;
    r.seconds = f.seconds;
    return r;
}

}  // namespace

Result solve_root_item(const Problem& p, const WorkItem& item) {
    const SolvePlan plan = plan_solve(p);
    if (!plan.splittable) throw std::runtime_error("the problem does not split by root moves: " + plan.reason);
    if (item.path.empty() || item.path.size() > 2) throw std::runtime_error("a solve item path has one or two moves");
    SolveLimits limits;
    limits.max_seconds = item.max_seconds;
    for (const SolveRootItem& root : plan.items) {
        if (root.twin != item.twin || root.phase != item.phase || solve_item_path(root)[0] != item.path[0]) continue;
        if (item.path.size() == 2) {
            for (const SolveRootItem& share : solve_replies(p, root))
                if (solve_item_path(share) == item.path)
                    return fragment_result(solve_fragment(p, share, item.threads, limits));
            throw std::runtime_error("no reply '" + path_key(item.path) + "' to the root move in play " +
                                     std::to_string(item.phase) + " of twin " + std::to_string(item.twin));
        }
        SolveBudgetResult b = solve_fragment_budget(p, root, item.threads, limits, item.budget_seconds);
        if (b.complete) return fragment_result(std::move(b.whole));
        Result r;
        r.status = Result::Status::Split;
        std::vector<std::pair<int, Path>> all;
        for (auto& [share, f] : b.done) {
            r.nodes += f.nodes;
            all.push_back({share.reply, solve_item_path(share)});
            r.fragments.push_back({solve_item_path(share), std::move(f.lines), f.nodes, f.seconds, f.timed_out});
        }
        for (const SolveRootItem& share : b.pending) all.push_back({share.reply, solve_item_path(share)});
        std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (auto& [reply, path] : all) r.pending.push_back(std::move(path));
        return r;
    }
    throw std::runtime_error("no root item '" + path_key(item.path) + "' in play " + std::to_string(item.phase) +
                             " of twin " + std::to_string(item.twin));
}

Path path_of(const MoveLine& line) {
    Path path;
    for (const Move& m : line) path.push_back(PathMove{m, 0});
    return path;
}

MoveLine moves_of(const Path& path) {
    MoveLine line;
    for (const PathMove& m : path) line.push_back(m.move);
    return line;
}

std::string proof_start_key(int twin, int play, int depth) {
    return std::to_string(twin) + "." + std::to_string(play) + "/k" + std::to_string(depth);
}

std::string proof_node_key(int twin, int play, const MoveLine& first_prefix) {
    return std::to_string(twin) + "." + std::to_string(play) + "/" + path_key(path_of(first_prefix));
}

int proof_start_depth(const std::string& key, int& twin, int& play) {
    // TWIN.PLAY/kDEPTH, each a number without leading zeros.
    auto number = [](std::string_view s, int& out) {
        if (s.empty() || s.size() > 6 || (s.size() > 1 && s[0] == '0')) return false;
        out = 0;
        for (char c : s) {
            if (c < '0' || c > '9') return false;
            out = out * 10 + (c - '0');
        }
        return true;
    };
    const std::size_t dot = key.find('.'), slash = key.find('/');
    if (dot == std::string::npos || slash == std::string::npos || dot > slash || slash + 1 >= key.size() ||
        key[slash + 1] != 'k')
        return -1;
    const std::string_view view(key);
    int t = 0, p = 0, depth = 0;
    if (!number(view.substr(0, dot), t) || !number(view.substr(dot + 1, slash - dot - 1), p) ||
        !number(view.substr(slash + 2), depth))
        return -1;
    twin = t;
    play = p;
    return depth;
}

Result solve_proof_item(const ProofTwinSolver& twin, const WorkItem& item) {
    SolveLimits limits;
    limits.max_seconds = item.max_seconds;
    const std::vector<int> lengths(item.lengths.begin(), item.lengths.end());
    ProofSuffixes found = twin.suffixes(item.phase, moves_of(item.path), lengths, item.threads, limits);
    Result r;
    r.status = Result::Status::Proof;
    r.timed_out = found.timed_out;
    r.nodes = found.nodes;
    r.seconds = found.seconds;
    for (const std::vector<MoveLine>& lines : found.lines) {
        std::vector<Path> paths;
        for (const MoveLine& line : lines) paths.push_back(path_of(line));
        r.proof_lines.push_back(std::move(paths));
    }
    return r;
}

Result run_item(const WorkItem& item, ProblemCache& cache) {
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    Result r;
    r.item_id = item.item_id;
    r.problem = item.problem;
    r.threads = item.threads > 0 ? item.threads : tbb::this_task_arena::max_concurrency();
    try {
        if (item.kind == SearchKind::Noop) {
            r.status = Result::Status::Done;
            return r;
        }
        if (item.kind == SearchKind::Cookcheck) {
            const int threads = r.threads;
            r = check_claim_item(item, cache);
            r.threads = threads;
            return r;
        }
        if (item.kind == SearchKind::Retro) {
            r.status = Result::Status::Fragment;
            const auto prefixes = cache.retro_prefixes(item);
            r.retro = retro_item_fragment(cache.problem(item), item.depth, item.chunk, item.twin, item.phase,
                                          item.prefix, item.threads, prefixes.get(), item.max_seconds);
            r.seconds = std::chrono::duration<double>(clock::now() - start).count();
            return r;
        }
        if (item.kind == SearchKind::Solve || item.kind == SearchKind::ProofGame) {
            const int threads = r.threads;
            if (item.kind == SearchKind::ProofGame)
                r = solve_proof_item(*cache.proof_solver(item), item);
            else if (item.path.empty())
                r = solve_one(cache.problem(item), item.threads, item.max_seconds);
            else
                r = solve_root_item(cache.problem(item), item);
            r.item_id = item.item_id;
            r.problem = item.problem;
            r.threads = threads;
            return r;
        }
        Position pos = cache.get(item).root;
        replay(pos, item.path);
        if (item.depth <= kSplitFloor || item.budget_seconds <= 0) {
            r.status = Result::Status::Done;
            r.nodes = parallel_perft(pos, item.depth, item.threads);
        } else {
            std::vector<PathMove> children = legal_path_moves(pos);
            std::uint64_t sum = 0;
            UndoInfo u;
            for (std::size_t i = 0; i < children.size(); ++i) {
                pos.do_move(children[i].move, u);
                std::uint64_t n = parallel_perft(pos, item.depth - 1, item.threads);
                pos.undo_move(children[i].move, u);
                sum += n;
                Path p = item.path;
                p.push_back(children[i]);
                r.done.push_back({p, n});
                double spent = std::chrono::duration<double>(clock::now() - start).count();
                if (spent > item.budget_seconds && i + 1 < children.size()) {
                    r.status = Result::Status::Split;
                    for (std::size_t j = i + 1; j < children.size(); ++j) {
                        Path q = item.path;
                        q.push_back(children[j]);
                        r.pending.push_back(std::move(q));
                    }
                    break;
                }
            }
            if (r.status != Result::Status::Split) {
                r.done.clear();
                r.status = Result::Status::Done;
                r.nodes = sum;
            }
        }
    } catch (const std::exception& e) {
        r = Result{};
        r.item_id = item.item_id;
        r.problem = item.problem;
        r.status = Result::Status::Error;
        r.error = e.what();
    }
    r.seconds = std::chrono::duration<double>(clock::now() - start).count();
    return r;
}

ItemPool::~ItemPool() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    work_ready_.notify_all();
    for (std::thread& t : threads_) t.join();
}

void ItemPool::submit(WorkItem item) {
    ++in_flight_;
    std::lock_guard lock(mutex_);
    work_.push_back(std::move(item));
    // Every waiting or running item has a thread of its own.
    if (threads_.size() < running_ + work_.size())
        threads_.emplace_back([this] { loop(); });
    else
        work_ready_.notify_one();
}

std::vector<Result> ItemPool::take(std::chrono::microseconds timeout) {
    std::unique_lock lock(mutex_);
    if (done_.empty() && in_flight_ > 0) result_ready_.wait_for(lock, timeout, [this] { return !done_.empty(); });
    std::vector<Result> out;
    out.swap(done_);
    in_flight_ -= int(out.size());
    return out;
}

// A pool thread: runs queued items until the pool stops and the queue is empty.
void ItemPool::loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
        work_ready_.wait(lock, [this] { return stop_ || !work_.empty(); });
        if (work_.empty()) return;
        WorkItem item = std::move(work_.front());
        work_.pop_front();
        ++running_;
        lock.unlock();
        Result r = run_item(item, cache_);
        lock.lock();
        --running_;
        done_.push_back(std::move(r));
        result_ready_.notify_one();
    }
}

}  // namespace rebirth::cluster
