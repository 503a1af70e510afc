#include "convergence-live.h"

#include <memory>
#include <stdexcept>
#include <string>

namespace ns3
{

LiveGradientNorms::LiveGradientNorms(const ConvergenceConfig& config,
                                     uint32_t workers,
                                     uint32_t shards)
    : m_model(config, workers, shards),
      m_step(config.learningRate / workers)
{
    m_history.assign(shards, {});
    for (uint32_t s = 0; s < shards; ++s)
    {
        m_history[s].push_back(Eigen::VectorXd::Zero(m_model.Slice(s).second));
    }
}

const Eigen::VectorXd&
LiveGradientNorms::GradientOf(uint32_t w, uint32_t k, const std::vector<uint64_t>& versions)
{
    const std::pair<uint32_t, uint32_t> key{w, k};
    auto it = m_gradients.find(key);
    if (it != m_gradients.end())
    {
        return it->second;
    }
    if (versions.size() != m_history.size())
    {
        throw std::invalid_argument("LiveGradientNorms: " + std::to_string(versions.size()) +
                                    " versions for " + std::to_string(m_history.size()) +
                                    " shards");
    }
    Eigen::VectorXd theta(m_model.Features().cols());
    for (uint32_t s = 0; s < m_history.size(); ++s)
    {
        if (versions[s] >= m_history[s].size())
        {
            throw std::invalid_argument("LiveGradientNorms: version " +
                                        std::to_string(versions[s]) + " of shard " +
                                        std::to_string(s) + " not reached");
        }
        theta.segment(m_model.Slice(s).first, m_model.Slice(s).second) = m_history[s][versions[s]];
    }
    return m_gradients.emplace(key, m_model.Gradient(w, k, theta)).first->second;
}

std::vector<double>
LiveGradientNorms::Norms(uint32_t w, uint32_t k, const std::vector<uint64_t>& versions)
{
    const Eigen::VectorXd& g = GradientOf(w, k, versions);
    std::vector<double> norms;
    for (uint32_t s = 0; s < m_history.size(); ++s)
    {
        norms.push_back(g.segment(m_model.Slice(s).first, m_model.Slice(s).second).norm());
    }
    return norms;
}

void
LiveGradientNorms::Applied(uint32_t w,
                           uint32_t k,
                           uint32_t s,
                           const std::vector<uint64_t>& versions)
{
    const Eigen::VectorXd& g = GradientOf(w, k, versions);
    const auto [first, count] = m_model.Slice(s);
    m_history[s].push_back(m_history[s].back() - m_step * g.segment(first, count));
}

void
LiveGradientNorms::Rollback(uint32_t s, uint64_t version)
{
    if (version < m_history[s].size())
    {
        m_history[s].resize(version + 1);
    }
}

Eigen::VectorXd
LiveGradientNorms::Theta() const
{
    Eigen::VectorXd theta(m_model.Features().cols());
    for (uint32_t s = 0; s < m_history.size(); ++s)
    {
        theta.segment(m_model.Slice(s).first, m_model.Slice(s).second) = m_history[s].back();
    }
    return theta;
}

std::unique_ptr<GradientNorms>
MakeLiveGradientNorms(const ConvergenceConfig& config, uint32_t workers, uint32_t shards)
{
    return std::make_unique<LiveGradientNorms>(config, workers, shards);
}

} // namespace ns3
