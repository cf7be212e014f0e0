export function App() {
  return (
    <main>
      <h1>QingStor Console</h1>
    </main>
  );
}
