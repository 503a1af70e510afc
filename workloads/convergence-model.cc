#include "convergence-model.h"

#include <cmath>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>

namespace ns3
{

namespace
{

/// \brief Uniform in [0, 1) from the top 53 bits of one draw.
double
Uniform(std::mt19937_64& rng)
{
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

/// \brief Box-Muller from two uniforms (the cosine branch only).
double
Normal(std::mt19937_64& rng)
{
    const double u1 = Uniform(rng);
    const double u2 = Uniform(rng);
    return std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(2.0 * M_PI * u2);
}

/// \brief log(1 + e^z), without overflow for large z.
double
Softplus(double z)
{
    return z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z));
}

} // namespace

ConvergenceModel::ConvergenceModel(const ConvergenceConfig& config,
                                   uint32_t workers,
                                   uint32_t shards)
    : m_config(config),
      m_workers(workers),
      m_shards(shards)
{
    if (config.samples == 0 || config.features == 0 || config.batch == 0 || workers == 0 ||
        shards == 0)
    {
        throw std::invalid_argument("ConvergenceModel: samples, features, batch, workers and "
                                    "shards must be > 0");
    }
    if (shards > config.features)
    {
        throw std::invalid_argument("ConvergenceModel: " + std::to_string(config.features) +
                                    " features cannot be split over " + std::to_string(shards) +
                                    " shards");
    }
    if (config.samples < workers)
    {
        throw std::invalid_argument("ConvergenceModel: " + std::to_string(config.samples) +
                                    " samples for " + std::to_string(workers) + " workers");
    }
    const uint32_t n = config.samples;
    const uint32_t d = config.features;
    std::mt19937_64 rng(config.seed);
    Eigen::VectorXd truth(d);
    for (uint32_t j = 0; j < d; ++j)
    {
        truth[j] = Normal(rng);
    }
    m_x.resize(n, d);
    m_y.resize(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t j = 0; j < d; ++j)
        {
            m_x(i, j) = Normal(rng);
        }
        const bool positive = m_x.row(i).dot(truth) > 0;
        const bool flip = Uniform(rng) < config.labelNoise;
        m_y[i] = (positive != flip) ? 1.0 : 0.0;
    }
    m_owned.assign(workers, {});
    for (uint32_t i = 0; i < n; ++i)
    {
        m_owned[i % workers].push_back(i);
    }
    m_theta = Eigen::VectorXd::Zero(d);
}

std::pair<uint32_t, uint32_t>
ConvergenceModel::Slice(uint32_t s) const
{
    const uint32_t base = m_config.features / m_shards;
    const uint32_t extra = m_config.features % m_shards;
    return {s * base + std::min(s, extra), base + (s < extra ? 1 : 0)};
}

double
ConvergenceModel::Loss(const Eigen::VectorXd& theta) const
{
    const Eigen::VectorXd z = m_x * theta;
    double sum = 0;
    for (Eigen::Index i = 0; i < z.size(); ++i)
    {
        sum += Softplus(z[i]) - m_y[i] * z[i];
    }
    return sum / static_cast<double>(z.size());
}

Eigen::VectorXd
ConvergenceModel::Gradient(uint32_t w, uint32_t k, const Eigen::VectorXd& theta) const
{
    const std::vector<uint32_t>& owned = m_owned[w];
    Eigen::VectorXd g = Eigen::VectorXd::Zero(m_config.features);
    for (uint32_t j = 0; j < m_config.batch; ++j)
    {
        const uint32_t i = owned[(static_cast<uint64_t>(k) * m_config.batch + j) % owned.size()];
        const double p = 1.0 / (1.0 + std::exp(-m_x.row(i).dot(theta)));
        g += (p - m_y[i]) * m_x.row(i).transpose();
    }
    return g / static_cast<double>(m_config.batch);
}

std::vector<double>
ConvergenceModel::Replay(const std::vector<AppliedUpdate>& updates,
                         const std::vector<std::vector<std::vector<uint64_t>>>& computedOn)
{
    m_theta = Eigen::VectorXd::Zero(m_config.features);
    // history[s][v]: shard s's slice after v updates.
    std::vector<std::vector<Eigen::VectorXd>> history(m_shards);
    for (uint32_t s = 0; s < m_shards; ++s)
    {
        history[s].push_back(m_theta.segment(Slice(s).first, Slice(s).second));
    }
    // One gradient per (worker, iteration), computed when its first update is applied:
    // every version it names was reached by then (it pulled them before computing).
    std::map<std::pair<uint32_t, uint32_t>, Eigen::VectorXd> gradients;
    std::vector<double> losses;
    losses.reserve(updates.size());
    const double step = m_config.learningRate / m_workers;
    for (const AppliedUpdate& u : updates)
    {
        if (u.worker >= m_workers || u.shard >= m_shards || u.worker >= computedOn.size() ||
            u.iteration >= computedOn[u.worker].size() ||
            computedOn[u.worker][u.iteration].size() != m_shards)
        {
            throw std::invalid_argument(
                "ConvergenceModel: update of worker " + std::to_string(u.worker) + ", iteration " +
                std::to_string(u.iteration) + " to shard " + std::to_string(u.shard) +
                " has no versions it computed on");
        }
        const std::pair<uint32_t, uint32_t> key{u.worker, u.iteration};
        auto it = gradients.find(key);
        if (it == gradients.end())
        {
            const std::vector<uint64_t>& v = computedOn[u.worker][u.iteration];
            Eigen::VectorXd theta(m_config.features);
            for (uint32_t s = 0; s < m_shards; ++s)
            {
                if (v[s] >= history[s].size())
                {
                    throw std::invalid_argument("ConvergenceModel: worker " +
                                                std::to_string(u.worker) + " computed on version " +
                                                std::to_string(v[s]) + " of shard " +
                                                std::to_string(s) + ", which has " +
                                                std::to_string(history[s].size() - 1) + " updates");
                }
                theta.segment(Slice(s).first, Slice(s).second) = history[s][v[s]];
            }
            it = gradients.emplace(key, Gradient(u.worker, u.iteration, theta)).first;
        }
        const auto [first, count] = Slice(u.shard);
        m_theta.segment(first, count) -= step * it->second.segment(first, count);
        history[u.shard].push_back(m_theta.segment(first, count));
        losses.push_back(Loss(m_theta));
    }
    return losses;
}

} // namespace ns3
