#include "directed-cycle.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>

namespace ns3
{

namespace
{

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
using Edge = boost::graph_traits<Graph>::edge_descriptor;

/// Thrown by the visitor at the first back edge: Boost's DFS has no other early exit.
struct CycleFound
{
    Vertex from; //!< the back edge's source (deepest vertex of the cycle)
    Vertex to;   //!< its target, an ancestor still on the DFS path (grey)
};

/// Records each vertex's tree parent, and stops at the first back edge.
class CycleVisitor : public boost::default_dfs_visitor
{
  public:
    explicit CycleVisitor(std::vector<Vertex>& parent)
        : m_parent(parent)
    {
    }

    void
    tree_edge(Edge e, const Graph& g) const
    {
        m_parent[boost::target(e, g)] = boost::source(e, g);
    }

    void
    back_edge(Edge e, const Graph& g) const
    {
        throw CycleFound{boost::source(e, g), boost::target(e, g)};
    }

  private:
    std::vector<Vertex>& m_parent;
};

} // namespace

std::vector<uint32_t>
FindDirectedCycle(const std::vector<std::vector<uint32_t>>& successors)
{
    Graph g(successors.size());
    for (uint32_t v = 0; v < successors.size(); ++v)
    {
        for (uint32_t w : successors[v])
        {
            boost::add_edge(v, w, g);
        }
    }
    std::vector<Vertex> parent(successors.size());
    try
    {
        boost::depth_first_search(g, boost::visitor(CycleVisitor(parent)));
    }
    catch (const CycleFound& found)
    {
        // Walk the tree path back from the back edge's source to its target.
        std::vector<uint32_t> cycle{static_cast<uint32_t>(found.from)};
        for (Vertex v = found.from; v != found.to;)
        {
            v = parent[v];
            cycle.push_back(static_cast<uint32_t>(v));
        }
        std::reverse(cycle.begin(), cycle.end());
        return cycle;
    }
    return {};
}

} // namespace ns3
