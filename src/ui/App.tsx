/** Root component of Swarm Playground; a plain shell until the views land. */
export function App() {
  return (
    <main className="app" data-testid="app-root">
      <h1>Swarm Playground</h1>
      <p>
        Watch a swarm of agents learn to coordinate under Reinforcement Learning from Collective
        Rewards. Every agent shares one policy and the whole swarm earns a single team reward, so
        nobody gets individual credit: you will see the agents discover division of labour, hand
        work over to each other and learn when talking saves time, and you can change the
        incentives, such as the deadline schedule, with sliders while they train.
      </p>
    </main>
  );
}
