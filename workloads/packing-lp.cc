#include "packing-lp.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{
/// Below this a tableau entry or a reduced cost counts as zero (the data are scaled so
/// that b is at most 1 and coefficients are route shares of order 1).
constexpr double kEps = 1e-9;
/// Smallest tableau entry pivoted on.
constexpr double kPivotTol = 1e-7;
/// How far below zero a basic variable may drift in the ratio test (Harris).
constexpr double kFeasTol = 1e-9;
/// Degenerate pivots in a row before Bland's rule takes over (anti-cycling).
constexpr uint32_t kDegenerateRun = 50;
} // namespace

PackingLp::PackingLp(const std::vector<double>& capacity)
    : m_rows(static_cast<uint32_t>(capacity.size())),
      m_scale(1)
{
    for (double c : capacity)
    {
        if (!(c > 0))
        {
            throw std::invalid_argument("PackingLp: every capacity must be > 0");
        }
        m_scale = std::max(m_scale, c);
    }
    m_tab.assign(m_rows, std::vector<double>(m_rows, 0.0));
    m_reduced.assign(m_rows, 0.0);
    m_basic.resize(m_rows);
    m_rhs.resize(m_rows);
    for (uint32_t i = 0; i < m_rows; ++i)
    {
        m_tab[i][i] = 1.0; // slack i: B = I at the start
        m_basic[i] = i;
        // A distinct relative perturbation of each b_i (at most 2e-7) breaks the ties that
        // make degenerate pivots cycle in floating point (the perturbation method, Charnes
        // 1952); callers scale the result back to the exact capacities.
        m_rhs[i] = capacity[i] / m_scale * (1 + 1e-7 * (1 + double((i * 7919u) % 1000) / 1000));
    }
}

uint32_t
PackingLp::AddColumn(const Column& column)
{
    // Its tableau column is B^-1 a, and B^-1 is the slacks' part of the tableau; its
    // reduced cost is 1 - y^T a with y_i = -(reduced cost of slack i).
    std::vector<double> tab(m_rows, 0.0);
    double reduced = 1.0;
    for (const auto& [row, a] : column)
    {
        if (row >= m_rows || !(a > 0))
        {
            throw std::invalid_argument("PackingLp: column entry (" + std::to_string(row) + ", " +
                                        std::to_string(a) + ") out of range or not positive");
        }
        const std::vector<double>& slack = m_tab[row];
        for (uint32_t i = 0; i < m_rows; ++i)
        {
            tab[i] += slack[i] * a;
        }
        reduced += m_reduced[row] * a;
    }
    m_tab.push_back(std::move(tab));
    m_reduced.push_back(reduced);
    m_columns.push_back(column);
    return static_cast<uint32_t>(m_columns.size() - 1);
}

void
PackingLp::Pivot(uint32_t row, uint32_t k)
{
    const std::vector<double> entering = m_tab[k]; // copy: column k changes below
    const double pivot = entering[row];
    const double dk = m_reduced[k]; // the loop zeroes m_reduced[k] on its way
    for (size_t c = 0; c < m_tab.size(); ++c)
    {
        std::vector<double>& col = m_tab[c];
        const double r = col[row] / pivot;
        if (r == 0)
        {
            continue;
        }
        for (uint32_t i = 0; i < m_rows; ++i)
        {
            col[i] -= entering[i] * r;
        }
        col[row] = r;
        m_reduced[c] -= dk * r;
    }
    const double step = m_rhs[row] / pivot;
    for (uint32_t i = 0; i < m_rows; ++i)
    {
        m_rhs[i] -= entering[i] * step;
    }
    m_rhs[row] = step;
    for (uint32_t i = 0; i < m_rows; ++i)
    {
        m_rhs[i] = std::max(0.0, m_rhs[i]); // Harris' steps may leave -kFeasTol behind
    }
    m_objective += dk * step;
    m_reduced[k] = 0;
    m_basic[row] = k;
}

double
PackingLp::Solve()
{
    uint32_t degenerate = 0;
    for (uint64_t pivots = 0;; ++pivots)
    {
        if (pivots > 100000 + 50 * uint64_t(m_tab.size()))
        {
            throw std::runtime_error("PackingLp: no optimum after " + std::to_string(pivots) +
                                     " pivots (numerical trouble)");
        }
        // Entering column: the largest reduced cost (Dantzig), or the first positive one
        // (Bland) during a long degenerate run.
        const bool bland = degenerate >= kDegenerateRun;
        uint32_t k = UINT32_MAX;
        for (uint32_t c = 0; c < m_tab.size(); ++c)
        {
            if (m_reduced[c] > kEps && (k == UINT32_MAX || (!bland && m_reduced[c] > m_reduced[k])))
            {
                k = c;
                if (bland)
                {
                    break;
                }
            }
        }
        if (k == UINT32_MAX)
        {
            return m_objective * m_scale;
        }
        // Harris' two-pass ratio test (Harris 1973): the largest step any row allows when
        // each may go kFeasTol below zero, then, among the rows that bind within that step,
        // the largest pivot element (small pivots blow up rounding errors); ties to the
        // smallest basic index (Bland).
        const std::vector<double>& col = m_tab[k];
        double limit = std::numeric_limits<double>::infinity();
        for (uint32_t i = 0; i < m_rows; ++i)
        {
            if (col[i] > kPivotTol)
            {
                limit = std::min(limit, (std::max(0.0, m_rhs[i]) + kFeasTol) / col[i]);
            }
        }
        uint32_t row = UINT32_MAX;
        for (uint32_t i = 0; i < m_rows; ++i)
        {
            if (col[i] > kPivotTol && std::max(0.0, m_rhs[i]) / col[i] <= limit &&
                (row == UINT32_MAX || col[i] > col[row] ||
                 (col[i] == col[row] && m_basic[i] < m_basic[row])))
            {
                row = i;
            }
        }
        const double best = row == UINT32_MAX ? 0 : std::max(0.0, m_rhs[row]) / col[row];
        if (row == UINT32_MAX)
        {
            // Cannot happen with b > 0 and a >= 0 (every column has a positive entry that
            // bounds it), but a numerically lost column must not loop for ever.
            throw std::runtime_error("PackingLp: unbounded column (numerical trouble)");
        }
        degenerate = best <= kEps ? degenerate + 1 : 0;
        Pivot(row, k);
    }
}

double
PackingLp::Value(uint32_t column) const
{
    const uint32_t k = m_rows + column;
    for (uint32_t i = 0; i < m_rows; ++i)
    {
        if (m_basic[i] == k)
        {
            return std::max(0.0, m_rhs[i]) * m_scale;
        }
    }
    return 0;
}

std::vector<double>
PackingLp::Duals() const
{
    std::vector<double> y(m_rows);
    for (uint32_t i = 0; i < m_rows; ++i)
    {
        y[i] = std::max(0.0, -m_reduced[i]);
    }
    return y;
}

} // namespace ns3
