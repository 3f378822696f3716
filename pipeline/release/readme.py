"""LISEZMOI.txt of a release's Tabletop Simulator zip: how a playtester puts the game on the virtual table, in
French then English. A release cannot know where its images will be hosted: without `pnp release --base-url`
the Saved Object's image addresses start with PLACEHOLDER, which the reader replaces once (any text editor's
"replace all") by the address of the folder holding the images, or by the folder itself as a file:/// address
to play alone on that computer."""

from __future__ import annotations

PLACEHOLDER = "https://remplacer-par-votre-adresse.invalid/"

FOLDERS = {
    "Windows": r"%USERPROFILE%\Documents\My Games\Tabletop Simulator\Saves\Saved Objects",
    "macOS": "~/Library/Tabletop Simulator/Saves/Saved Objects",
    "Linux": "~/.local/share/Tabletop Simulator/Saves/Saved Objects",
}


def tts_readme(title: str, version: str, saved: str, images_url: str, hosted: bool) -> str:
    """The text; `saved` is the Saved Object's stem ("NBA-Deck-Building"), `images_url` the address its images
    are written under, `hosted` whether that is a real address (--base-url) rather than PLACEHOLDER's."""
    folders_fr = "\n".join(f"     - {system} : {path}" for system, path in FOLDERS.items())
    folders_en = "\n".join(f"     - {system}: {path}" for system, path in FOLDERS.items())
    if hosted:
        host_fr = (f"1. Les images sont attendues à l'adresse {images_url}\n"
                   "   Déposez-y tous les fichiers .png de ce dossier (la vignette comprise, sans risque).")
        host_en = (f"1. The images are expected at {images_url}\n"
                   "   Upload every .png file of this folder there (the thumbnail too, it does no harm).")
    else:
        host_fr = ("1. Hébergez les images : déposez les fichiers .png de ce dossier à une adresse publique\n"
                   "   (Steam Cloud depuis le Cloud Manager du jeu, ou un site web), puis, dans "
                   f"{saved}.json,\n   remplacez partout « {images_url} » par cette adresse (terminée par /).\n"
                   "   Pour jouer seul sur cet ordinateur, l'adresse peut être ce dossier lui-même :\n"
                   "   file:///C:/chemin/vers/ce/dossier/ (Windows) ou file:///home/vous/ce/dossier/.")
        host_en = ("1. Host the images: upload the .png files of this folder to a public address (Steam Cloud\n"
                   f"   from the game's Cloud Manager, or a web site), then in {saved}.json replace every\n"
                   f"   \"{images_url}\" by that address (ending with /). To play alone on this computer the\n"
                   "   address can be this folder itself: file:///C:/path/to/this/folder/ (Windows) or\n"
                   "   file:///home/you/this/folder/.")
    return f"""{title} {version} — Tabletop Simulator
{'=' * (len(title) + len(version) + 24)}

Français
--------
Ce dossier contient l'objet sauvegardé {saved}.json, sa vignette {saved}.png et les images
des cartes, plateaux, pions et aides de jeu, avec leur marque d'édition.

{host_fr}
2. Copiez {saved}.json et {saved}.png dans le dossier des objets sauvegardés :
{folders_fr}
3. Dans Tabletop Simulator : Objets › Objets sauvegardés › {saved}. Les pioches arrivent faces
   cachées à côté de leur plateau ; les dés sont exportés comme six tuiles par dé.
4. Des images anciennes s'affichent encore ? Le jeu garde en mémoire ce qu'il a téléchargé :
   décochez « Mod caching » dans la configuration ou videz le dossier Mods/Images.
   Les noms des images changent avec leur contenu, donc une nouvelle édition ne se mélange pas
   à l'ancienne.

English
-------
This folder holds the Saved Object {saved}.json, its thumbnail {saved}.png and the images of the
cards, boards, tokens and player aids, with their edition marks.

{host_en}
2. Copy {saved}.json and {saved}.png into the Saved Objects folder:
{folders_en}
3. In Tabletop Simulator: Objects › Saved Objects › {saved}. Decks arrive face down beside their
   board; dice are exported as six tiles per die.
4. Old images still showing? The game keeps what it downloaded: untick "Mod caching" in the
   configuration or empty the Mods/Images folder. Image names change with their content, so a
   new edition never mixes with an old one.
"""
