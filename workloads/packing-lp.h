/*
 * PackingLp: the linear program of a fractional packing,
 *     maximize sum_j x_j  subject to  sum_j x_j a_j <= b,  x >= 0   (a_j >= 0, b > 0),
 * solved by the primal simplex method on a dense tableau whose columns can be added after a
 * solve: the tableau keeps B^-1 (the slack columns), so a new column is priced and entered
 * without starting over. This is what column generation needs (Dantzig-Wolfe; Chvatal,
 * "Linear Programming", 1983, ch. 13): ArborescencePacking adds the tree an oracle finds
 * for the current duals until no tree improves the packing. Plain C++, no solver library.
 */
#ifndef PARAMSYNC_PACKING_LP_H
#define PARAMSYNC_PACKING_LP_H

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \brief max 1^T x s.t. A x <= b, x >= 0, with columns added incrementally.
 */
class PackingLp
{
  public:
    /// \brief Sparse column: (row, coefficient > 0).
    using Column = std::vector<std::pair<uint32_t, double>>;

    /// \brief Rows with their right-hand sides. \throws std::invalid_argument unless every
    /// b_i > 0
    explicit PackingLp(const std::vector<double>& capacity);

    /// \brief Adds a column; returns its index (0, 1, ...). Call Solve() again after.
    /// \throws std::invalid_argument for a row out of range or a coefficient <= 0
    uint32_t AddColumn(const Column& column);

    /**
     * \brief Pivots to an optimal basis (Dantzig's rule, Bland's after a run of degenerate
     * pivots, so it cannot cycle).
     * \return the optimal objective sum_j x_j
     */
    double Solve();

    /// \brief x_j of the last solve. The right-hand sides are perturbed by at most 2e-7
    /// relative (anti-cycling), so a row may be exceeded by as much: scale if exactness matters.
    double Value(uint32_t column) const;
    /// \brief Optimal duals y_i >= 0 of the last solve: the price of a unit of row i.
    /// By LP duality sum_i b_i y_i equals the objective, and every column has
    /// y^T a_j >= 1.
    std::vector<double> Duals() const;
    /// \brief Number of columns added.
    uint32_t
    ColumnCount() const
    {
        return static_cast<uint32_t>(m_columns.size());
    }

  private:
    /// \brief One pivot on (row, tableau column k) of the whole tableau.
    void Pivot(uint32_t row, uint32_t k);

    uint32_t m_rows;                        //!< constraints
    double m_scale;                         //!< b is stored divided by it (conditioning)
    std::vector<Column> m_columns;          //!< the structural columns as added
    std::vector<std::vector<double>> m_tab; //!< tableau columns: slacks 0..m-1, then x_j
    std::vector<double> m_reduced;          //!< reduced cost of each tableau column
    std::vector<double> m_rhs;              //!< B^-1 b (scaled)
    std::vector<uint32_t> m_basic;          //!< tableau column basic in each row
    double m_objective{0};                  //!< objective of the current basis (scaled)
};

} // namespace ns3

#endif // PARAMSYNC_PACKING_LP_H
