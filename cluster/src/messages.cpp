#include "rebirth/cluster/messages.h"

#include <cstring>
#include <sstream>

#include <boost/archive/archive_exception.hpp>
#include <boost/archive/binary_iarchive_impl.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/archive/impl/archive_serializer_map.ipp>
#include <boost/archive/impl/basic_binary_iarchive.ipp>
#include <boost/archive/impl/basic_binary_iprimitive.ipp>
#include <boost/serialization/array_optimization.hpp>
#include <boost/serialization/split_free.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>

namespace rebirth::cluster {

// Boost's binary_iarchive, except that it refuses a string or collection longer than the
// bytes left in the message before allocating it (a corrupted length must not allocate
// gigabytes), and a bool byte other than 0 or 1. Reads the same format binary_oarchive writes.
class BoundedIArchive : public boost::archive::binary_iarchive_impl<BoundedIArchive, char, std::char_traits<char>> {
    using Base = boost::archive::binary_iarchive_impl<BoundedIArchive, char, std::char_traits<char>>;
    friend class boost::archive::detail::interface_iarchive<BoundedIArchive>;
    friend class boost::archive::basic_binary_iarchive<BoundedIArchive>;
    friend class boost::archive::load_access;
    friend class boost::archive::basic_binary_iprimitive<BoundedIArchive, char, std::char_traits<char>>;

  public:
    // Reads the archive header. Boost asserts (debug builds) when the library version byte
    // after the signature is missing: a header cut short is refused first.
    explicit BoundedIArchive(std::istream& in) : Base(in, 0) {
        if (m_sb.in_avail() < std::streamsize(8 + std::strlen(boost::archive::BOOST_ARCHIVE_SIGNATURE()) + 1))
            throw ProtocolError("archive header cut short");
        init(0);
    }

  private:
    // Throws unless `count` items of at least one byte each fit in the bytes left.
    void check_left(std::uint64_t count, const char* what) {
        const std::streamsize left = m_sb.in_avail();
        if (left < 0 || count > std::uint64_t(left))
            throw ProtocolError(std::string(what) + " of " + std::to_string(count) + " announced with only " +
                                std::to_string(left < 0 ? 0 : left) + " bytes left");
    }

    using Base::load;
    void load(std::string& s) {
        std::uint64_t size = 0;
        load_binary(&size, sizeof size);
        check_left(size, "string");
        s.resize(size);
        if (size > 0) load_binary(s.data(), size);
    }
    void load(bool& b) {
        std::uint8_t byte = 0;
        load_binary(&byte, 1);
        if (byte > 1) throw ProtocolError("bool of value " + std::to_string(byte));
        b = byte == 1;
    }

    template <class T>
    void load_override(T& t) {
        Base::load_override(t);
    }
    void load_override(boost::serialization::collection_size_type& count) {
        Base::load_override(count);
        check_left(std::size_t(count), "collection");
    }
};

}  // namespace rebirth::cluster

// Vectors of numbers (WorkItem::lengths) are written as one block by binary_oarchive's array
// optimization: read them the same way.
BOOST_SERIALIZATION_USE_ARRAY_OPTIMIZATION(rebirth::cluster::BoundedIArchive)

template class boost::archive::basic_binary_iprimitive<rebirth::cluster::BoundedIArchive, char, std::char_traits<char>>;
template class boost::archive::basic_binary_iarchive<rebirth::cluster::BoundedIArchive>;
template class boost::archive::binary_iarchive_impl<rebirth::cluster::BoundedIArchive, char, std::char_traits<char>>;
template class boost::archive::detail::archive_serializer_map<rebirth::cluster::BoundedIArchive>;

namespace boost::serialization {

template <class Archive>
void serialize(Archive& ar, rebirth::Move& m, const unsigned int) {
    std::uint8_t from = m.from, to = m.to, kind = std::uint8_t(m.kind), promotion = m.promotion, rebirth = m.rebirth,
                 rebirth_walk = m.rebirth_walk, extra = m.extra, spare = m.spare;
    ar& from& to& kind& promotion& rebirth& rebirth_walk& extra& spare;
    m.from = rebirth::Square(from);
    m.to = rebirth::Square(to);
    m.kind = rebirth::MoveKind(kind);
    m.promotion = promotion;
    m.rebirth = rebirth::Square(rebirth);
    m.rebirth_walk = rebirth_walk;
    m.extra = rebirth::Square(extra);
    m.spare = spare;
}

template <class Archive>
void serialize(Archive& ar, rebirth::cluster::PathMove& m, const unsigned int) {
    ar& m.move& m.occurrence;
}

template <class Archive>
void serialize(Archive& ar, rebirth::cluster::WorkItem& w, const unsigned int) {
    std::uint8_t kind = std::uint8_t(w.kind);
    ar& w.protocol& w.item_id& w.problem& w.file& w.problem_index& w.file_hash& kind& w.path& w.depth& w
        .budget_seconds& w.threads& w.max_seconds& w.twin& w.phase& w.lengths& w.prefix& w.chunk;
    w.kind = rebirth::cluster::SearchKind(kind);
}

template <class Archive>
void serialize(Archive& ar, rebirth::cluster::ChildCount& c, const unsigned int) {
    ar& c.path& c.nodes;
}

template <class Archive>
void serialize(Archive& ar, rebirth::PlayLine& l, const unsigned int) {
    std::uint8_t first = std::uint8_t(l.first);
    ar& l.twin& l.play& first& l.moves& l.set_play& l.restart;
    if (first > 1) throw rebirth::cluster::ProtocolError("line of side " + std::to_string(first));
    l.first = rebirth::Color(first);
}

template <class Archive>
void serialize(Archive& ar, rebirth::cluster::FlatNode& n, const unsigned int) {
    std::uint8_t kind = std::uint8_t(n.kind), then = std::uint8_t(n.then);
    ar& n.depth& kind& n.move& n.goal& then;
    n.kind = rebirth::PlayNode::Kind(kind);
    n.then = rebirth::PlayNode::Then(then);
}

// A tree travels as its nodes in depth-first order (flatten_tree): no recursion to read it.
template <class Archive>
void save(Archive& ar, const rebirth::PlayTree& t, const unsigned int) {
    const std::uint8_t first = std::uint8_t(t.first);
    const std::vector<rebirth::cluster::FlatNode> nodes = rebirth::cluster::flatten_tree(t.root);
    ar& t.twin& t.play& first& nodes;
}
template <class Archive>
void load(Archive& ar, rebirth::PlayTree& t, const unsigned int) {
    std::uint8_t first = 0;
    std::vector<rebirth::cluster::FlatNode> nodes;
    ar& t.twin& t.play& first& nodes;
    if (first > 1) throw rebirth::cluster::ProtocolError("tree of side " + std::to_string(first));
    t.first = rebirth::Color(first);
    t.root = rebirth::cluster::unflatten_tree(nodes);
}
template <class Archive>
void serialize(Archive& ar, rebirth::PlayTree& t, const unsigned int version) {
    split_free(ar, t, version);
}

template <class Archive>
void serialize(Archive& ar, rebirth::Piece& p, const unsigned int) {
    std::uint8_t walk = p.walk, color = std::uint8_t(p.color), flags = p.flags;
    ar& walk& color& flags;
    if (color > 1) throw rebirth::cluster::ProtocolError("unit of side " + std::to_string(color));
    p.walk = rebirth::Walk(walk);
    p.color = rebirth::Color(color);
    p.flags = flags;
}

template <class Archive>
void serialize(Archive& ar, rebirth::UnMove& u, const unsigned int) {
    std::uint8_t uncaptured = u.uncaptured, unreborn = u.unreborn, capturer_now = u.capturer_now,
                 rook_from = u.rook_from, parrain_square = u.parrain_square, parrain_rebirth = u.parrain_rebirth;
    ar& u.move& uncaptured& unreborn& capturer_now& u.resurrected& u.capturer_before& u.capturer_lost& rook_from& u
        .uncaptured_flags& parrain_square& u.parrain_piece& parrain_rebirth;
    u.uncaptured = rebirth::Walk(uncaptured);
    u.unreborn = rebirth::Square(unreborn);
    u.capturer_now = rebirth::Square(capturer_now);
    u.rook_from = rebirth::Square(rook_from);
    u.parrain_square = rebirth::Square(parrain_square);
    u.parrain_rebirth = rebirth::Square(parrain_rebirth);
}

template <class Archive>
void serialize(Archive& ar, rebirth::cluster::FlatStep& s, const unsigned int) {
    std::uint8_t side = std::uint8_t(s.side), value = std::uint8_t(s.value);
    ar& s.depth& side& s.retraction& s.forward& value& s.timed_out;
    s.side = rebirth::Color(side);
    s.value = rebirth::RetractorValue(value);
}

// A tree of steps travels as its steps in depth-first order (flatten_steps); the texts are
// not sent.
template <class Archive>
void save(Archive& ar, const rebirth::RetractorStep& step, const unsigned int) {
    const std::vector<rebirth::cluster::FlatStep> steps = rebirth::cluster::flatten_steps(step);
    ar& steps;
}
template <class Archive>
void load(Archive& ar, rebirth::RetractorStep& step, const unsigned int) {
    std::vector<rebirth::cluster::FlatStep> steps;
    ar& steps;
    step = rebirth::cluster::unflatten_steps(steps);
}
template <class Archive>
void serialize(Archive& ar, rebirth::RetractorStep& step, const unsigned int version) {
    split_free(ar, step, version);
}

template <class Archive>
void serialize(Archive& ar, rebirth::RetroFragment& f, const unsigned int) {
    ar& f.sequences& f.key_choices& f.unresolved_choices& f.keys& f.unresolved;
}

template <class Archive>
void serialize(Archive& ar, rebirth::TwinOutput& o, const unsigned int) {
    ar& o.lines& o.trees& o.supported& o.timed_out& o.partial& o.last_cut;
}

template <class Archive>
void serialize(Archive& ar, rebirth::cluster::ChildFragment& f, const unsigned int) {
    ar& f.path& f.lines& f.nodes& f.seconds& f.timed_out;
}

template <class Archive>
void serialize(Archive& ar, rebirth::cluster::Result& r, const unsigned int) {
    std::uint8_t status = std::uint8_t(r.status);
    ar& r.protocol& r.item_id& r.problem& status& r.nodes& r.done& r.pending& r.error& r.threads& r.seconds& r.text& r
        .outputs& r.retro_whole& r.solve_status& r.solutions& r.retro& r.timed_out& r.requests& r.fragments& r
        .proof_lines& r.lines& r.trees;
    r.status = rebirth::cluster::Result::Status(status);
}

}  // namespace boost::serialization

namespace rebirth::cluster {

namespace {

constexpr char kMagic[4] = {'R', 'B', 'C', 'L'};

void put_le(std::string& out, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
}

std::uint64_t get_le(std::string_view in, std::size_t at, int bytes) {
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= std::uint64_t(std::uint8_t(in[at + i])) << (8 * i);
    return v;
}

template <typename T>
std::string to_bytes(const T& value) {
    std::ostringstream out(std::ios::binary);
    {
        boost::archive::binary_oarchive ar(out);
        ar << value;
    }
    return std::move(out).str();
}

// Decodes a whole buffer into `value`; any failure or leftover byte is a ProtocolError.
template <typename T>
T from_bytes(std::string_view bytes, const char* what) {
    T value{};
    std::istringstream in(std::string(bytes), std::ios::binary);
    try {
        BoundedIArchive ar(in);
        ar >> value;
    } catch (const std::exception& e) {
        throw ProtocolError(std::string("malformed ") + what + ": " + e.what());
    }
    if (in.peek() != std::char_traits<char>::eof())
        throw ProtocolError(std::string("malformed ") + what + ": trailing bytes");
    if (value.protocol != kProtocolVersion)
        throw ProtocolError(std::string(what) + " of protocol version " + std::to_string(value.protocol) +
                            ", expected " + std::to_string(kProtocolVersion));
    return value;
}

}  // namespace

std::uint64_t checksum(std::string_view bytes) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : bytes) {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    return h;
}

std::string encode_frame(MsgType type, std::string_view payload) {
    std::string out(kMagic, 4);
    put_le(out, kProtocolVersion, 2);
    put_le(out, std::uint16_t(type), 2);
    put_le(out, payload.size(), 8);
    put_le(out, checksum(payload), 8);
    out.append(payload);
    return out;
}

Frame decode_frame(std::string_view bytes) {
    if (bytes.size() < kFrameHeaderSize)
        throw ProtocolError("truncated message: " + std::to_string(bytes.size()) + " bytes, header needs " +
                            std::to_string(kFrameHeaderSize));
    if (bytes.substr(0, 4) != std::string_view(kMagic, 4))
        throw ProtocolError("not a rebirth-cluster message (bad magic)");
    std::uint64_t version = get_le(bytes, 4, 2);
    if (version != kProtocolVersion)
        throw ProtocolError("message of protocol version " + std::to_string(version) + ", expected " +
                            std::to_string(kProtocolVersion));
    std::uint64_t type = get_le(bytes, 6, 2);
    if (type < std::uint16_t(MsgType::Ready) || type > std::uint16_t(MsgType::Stop))
        throw ProtocolError("unknown message type " + std::to_string(type));
    std::uint64_t length = get_le(bytes, 8, 8);
    if (length != bytes.size() - kFrameHeaderSize)
        throw ProtocolError("truncated message: header announces " + std::to_string(length) + " payload bytes, got " +
                            std::to_string(bytes.size() - kFrameHeaderSize));
    std::string_view payload = bytes.substr(kFrameHeaderSize);
    if (checksum(payload) != get_le(bytes, 16, 8)) throw ProtocolError("corrupted message: checksum mismatch");
    return Frame{MsgType(type), std::string(payload)};
}

std::string serialize(const WorkItem& item) { return to_bytes(item); }
std::string serialize(const Result& result) { return to_bytes(result); }

WorkItem deserialize_work_item(std::string_view bytes) {
    WorkItem item = from_bytes<WorkItem>(bytes, "work item");
    if (item.kind < SearchKind::Perft || item.kind > SearchKind::Cookcheck)
        throw ProtocolError("work item of unknown search kind");
    if (item.kind == SearchKind::Retro && (!item.path.empty() || item.depth < 1 || item.prefix < 0 || item.chunk < 1))
        throw ProtocolError("retro work item with a move path, no prefix length, a negative item number or no chunk");
    if (item.kind != SearchKind::Retro && (item.prefix != 0 || item.chunk != 0))
        throw ProtocolError("work item with a retro item number or chunk but not of kind retro");
    if (item.kind == SearchKind::Noop && !item.path.empty()) throw ProtocolError("noop work item with a move path");
    if (item.kind == SearchKind::Cookcheck && !item.path.empty())
        throw ProtocolError("cook-check work item with a move path");
    if (item.kind == SearchKind::Solve && item.path.size() > 2)
        throw ProtocolError("solve work item with a path of more than two moves");
    if (item.kind != SearchKind::ProofGame && !item.lengths.empty())
        throw ProtocolError("work item with proof-game lengths but not of kind proof game");
    // A proof-game item searches lengths longer than its path, each once, shortest first.
    std::int32_t previous = std::int32_t(item.path.size());
    for (std::int32_t len : item.lengths) {
        if (len <= previous || len > kMaxProofLength)
            throw ProtocolError("proof-game work item with length " + std::to_string(len) + " after " +
                                std::to_string(previous) + " (lengths increase from the path's, at most " +
                                std::to_string(kMaxProofLength) + ")");
        previous = len;
    }
    return item;
}

Result deserialize_result(std::string_view bytes) {
    Result r = from_bytes<Result>(bytes, "result");
    if (r.status < Result::Status::Done || r.status > Result::Status::Proof)
        throw ProtocolError("result of unknown status");
    const bool whole = !r.outputs.empty() || !r.retro_whole.empty();
    if (r.status != Result::Status::Solved && (!r.text.empty() || !r.solve_status.empty() || whole))
        throw ProtocolError("result with a claim's result, a problem's solutions or a status but not of status solved");
    if (int(!r.text.empty()) + int(!r.outputs.empty()) + int(!r.retro_whole.empty()) > 1)
        throw ProtocolError("solved result with more than one of a claim's result, twins and retro twins");
    if (r.status == Result::Status::Solved && !r.error.empty() && (whole || r.solve_status != "bad-input"))
        throw ProtocolError("solved result with an error but with solutions or not of status bad-input");
    const bool retro = r.retro != RetroFragment{};
    if (r.status != Result::Status::Fragment && (retro || !r.lines.empty() || !r.trees.empty()))
        throw ProtocolError("result with retro data, lines or trees but not of status fragment");
    if (retro && (!r.lines.empty() || !r.trees.empty())) throw ProtocolError("fragment with both retro data and play");
    if (r.retro.key_choices < 0 || r.retro.unresolved_choices < 0)
        throw ProtocolError("retro fragment with a negative count of first choices");
    if (r.timed_out && retro) throw ProtocolError("timed-out fragment with retro data");
    if (r.timed_out && (!r.lines.empty() || !r.trees.empty())) throw ProtocolError("timed-out fragment with play");
    if (r.status != Result::Status::Fragment && r.status != Result::Status::Proof && r.timed_out)
        throw ProtocolError("result timed out but not of status fragment or proof");
    if (r.status != Result::Status::Proof && !r.proof_lines.empty())
        throw ProtocolError("result with proof-game lines but not of status proof");
    if (r.timed_out && !r.proof_lines.empty()) throw ProtocolError("timed-out result with proof-game lines");
    for (const std::vector<Path>& lines : r.proof_lines)
        for (const Path& line : lines)
            if (line.empty() || line.size() > std::size_t(kMaxProofLength))
                throw ProtocolError("proof-game line of " + std::to_string(line.size()) + " moves");
    if (r.status != Result::Status::Split && !r.fragments.empty())
        throw ProtocolError("result with reply fragments but not of status split");
    for (const ChildFragment& f : r.fragments) {
        if (f.path.size() != 2) throw ProtocolError("reply fragment with a path of other than two moves");
        if (f.timed_out && !f.lines.empty()) throw ProtocolError("timed-out reply fragment with lines");
    }
    if (r.status == Result::Status::Solved && r.solve_status.empty())
        throw ProtocolError("solved result without a status");
    if (r.requests > kMaxRequests)
        throw ProtocolError("result asking for " + std::to_string(r.requests) + " items, at most " +
                            std::to_string(kMaxRequests));
    return r;
}

namespace {

// The tree of `flat`, its nodes in depth-first order with their depths (flatten_tree,
// flatten_steps): `make(f)` gives a node without children (throwing ProtocolError for a field
// out of range), `children` is the member that holds them, `what` names a node in messages.
// Throws ProtocolError when the depths do not nest (the first 0, each at most one deeper than
// the one before, none 0 after the first, none beyond kMaxTreeDepth).
template <class Node, class Flat, class Make>
Node unflatten(const std::vector<Flat>& flat, std::vector<Node> Node::*children, Make make, const std::string& what) {
    if (flat.empty() || flat.front().depth != 0)
        throw ProtocolError("no " + what + " of depth 0 first: a tree without its root");
    Node root;
    std::vector<Node*> path;  // path[d]: the latest node of depth d
    for (std::size_t i = 0; i < flat.size(); ++i) {
        const Flat& f = flat[i];
        Node node = make(f);
        if (i > 0 && (f.depth < 1 || f.depth > int(path.size()) || f.depth > kMaxTreeDepth))
            throw ProtocolError("a " + what + " of depth " + std::to_string(f.depth) + " after one of depth " +
                                std::to_string(path.size() - 1));
        Node* at = nullptr;
        if (i == 0) {
            root = std::move(node);
            at = &root;
        } else {
            std::vector<Node>& siblings = path[std::size_t(f.depth - 1)]->*children;
            siblings.push_back(std::move(node));
            at = &siblings.back();
        }
        path.resize(std::size_t(f.depth));
        path.push_back(at);
    }
    return root;
}

}  // namespace

std::vector<FlatStep> flatten_steps(const RetractorStep& root) {
    std::vector<FlatStep> out;
    std::vector<std::pair<const RetractorStep*, int>> todo{{&root, 0}};
    while (!todo.empty()) {
        const auto [s, depth] = todo.back();
        todo.pop_back();
        out.push_back({depth, s->side, s->retraction, s->forward_moves, s->value, s->timed_out});
        for (auto c = s->next.rbegin(); c != s->next.rend(); ++c) todo.push_back({&*c, depth + 1});
    }
    return out;
}

RetractorStep unflatten_steps(const std::vector<FlatStep>& steps) {
    auto make = [](const FlatStep& f) {
        if (f.side > BLACK || f.value > RetractorValue::Unknown)
            throw ProtocolError("a retractor's step of side " + std::to_string(int(f.side)) + ", value " +
                                std::to_string(int(f.value)));
        RetractorStep step;
        step.side = f.side;
        step.retraction = f.retraction;
        step.forward_moves = f.forward;
        step.value = f.value;
        step.timed_out = f.timed_out;
        return step;
    };
    return unflatten(steps, &RetractorStep::next, make, "retractor's step");
}

std::vector<FlatNode> flatten_tree(const PlayNode& root) {
    std::vector<FlatNode> out;
    std::vector<std::pair<const PlayNode*, int>> todo{{&root, 0}};
    while (!todo.empty()) {
        const auto [n, depth] = todo.back();
        todo.pop_back();
        out.push_back({depth, n->kind, n->move, n->goal, n->then});
        for (auto c = n->children.rbegin(); c != n->children.rend(); ++c) todo.push_back({&*c, depth + 1});
    }
    return out;
}

PlayNode unflatten_tree(const std::vector<FlatNode>& nodes) {
    auto make = [](const FlatNode& f) {
        if (f.kind > PlayNode::Kind::Obliged || f.then > PlayNode::Then::Zugzwang)
            throw ProtocolError("a tree node of kind " + std::to_string(int(f.kind)) + ", end " +
                                std::to_string(int(f.then)));
        return PlayNode{f.kind, f.move, {}, f.goal, f.then};
    };
    return unflatten(nodes, &PlayNode::children, make, "tree node");
}

}  // namespace rebirth::cluster
