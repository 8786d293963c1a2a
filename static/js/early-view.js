// Which side of the table the page shows, decided before the first paint: the GM's for the
// address "#gm", else the player's (py/app/views.py; py/app/gm_panel.py `show_side` keeps it
// once Python runs). app.css hides the other side by <html data-view>.
(() => {
  const side = () => {
    document.documentElement.dataset.view = location.hash === "#gm" ? "gm" : "player";
  };
  side();
  addEventListener("hashchange", () => {  // once ready, Python decides: a Back can be refused
    if (document.documentElement.dataset.ready !== "true") side();
  });
})();
